#!/usr/bin/env bash
# The steps of action.yml, kept here so that they can be run (and tested) outside GitHub.
#   install: pip install schemalint ($SCHEMALINT_VERSION from PyPI, else the action's own checkout)
#   check:   schemalint check with annotations, the job summary and SARIF when asked; exits with its code
set -uo pipefail

install() {
  if [ -n "${SCHEMALINT_VERSION:-}" ]; then
    python3 -m pip install --disable-pip-version-check -q "schemalint==${SCHEMALINT_VERSION}"
  else
    python3 -m pip install --disable-pip-version-check -q "${SCHEMALINT_SOURCE:?}"
  fi
}

check() {
  local summary="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/schemalint-summary.md"
  local -a paths extra command
  read -r -a paths <<< "${SCHEMALINT_PATHS:-.}"
  read -r -a extra <<< "${SCHEMALINT_ARGS:-}"
  command=(schemalint check "${paths[@]}" "${extra[@]}"
           --output-format github --output-format "markdown:$summary")
  if [ "${SCHEMALINT_SARIF:-false}" = "true" ]; then
    command+=(--output-format "sarif:schemalint.sarif")
  fi
  if [ -n "${SCHEMALINT_AGAINST:-}" ]; then
    command+=(--against "$SCHEMALINT_AGAINST")
  fi
  "${command[@]}"
  local code=$?
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$summary" ]; then
    cat "$summary" >> "$GITHUB_STEP_SUMMARY"
  fi
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "exit-code=$code" >> "$GITHUB_OUTPUT"
  fi
  return "$code"
}

case "${1:-}" in
  install) install ;;
  check) check ;;
  *) echo "usage: $0 install|check" >&2; exit 2 ;;
esac
