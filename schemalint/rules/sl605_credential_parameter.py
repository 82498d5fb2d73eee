from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from schemalint.diagnostics import Finding
from schemalint.lazy_pattern import LazyPattern
from schemalint.model import SchemaNode, Severity
from schemalint.rules.base import LintContext, NodeRule, Nodes
from schemalint.text import split_name, word_set

#: Final name words that are a credential on their own.
CREDENTIAL_WORDS = frozenset(
    "password passwd pwd passphrase secret secrets apikey credential credentials authticket authtoken "
    "sessiontoken otp totp".split()
)
#: Final words that are a credential after one of these words (`api_key`, `access_token`).
CREDENTIAL_PAIRS = {
    "key": word_set("api access secret private ssh signing session"),
    "token": word_set("access auth bearer refresh session id oauth api"),
    "secret": word_set("client app session"),
    "cookie": word_set("session auth login"),
    "ticket": word_set("auth login service kerberos"),
    "session": word_set("auth login"),
    "code": word_set("auth otp mfa"),
}
#: Final words that are a credential only when the description talks about authentication: a
#: `token` may be a page token, a `session` a chat session, a `ticket` a support ticket.
_AMBIGUOUS_CREDENTIALS = frozenset("token key ticket session sessionid sid cookie".split())
#: `token` and `key` alone are credentials only when the description says so (`page_token` is not).
_AUTH_TEXT = LazyPattern(
    r"\b(?:auth\w*|api\s+key|access|bearer|secret|credential|login|password|oauth|jwt)\b|认证|鉴权|密钥|令牌",
    re.IGNORECASE,
)
#: For a `ticket`, `session` or `cookie`, "access" is not enough ("the session to access"): it must be about signing in.
_SIGN_IN_TEXT = LazyPattern(
    r"\b(?:auth\w*|bearer|credential|login|logged\s+in|password|oauth|jwt|sign(?:ed)?[\s-]?in|kerberos|sso)\b"
    r"|认证|鉴权|登录|令牌",
    re.IGNORECASE,
)
_NOT_CREDENTIAL = frozenset("page next continuation cursor max count limit num sort partition primary foreign".split())


def _is_credential_pair(words: Sequence[str]) -> bool:
    return len(words) >= 2 and words[-2] in CREDENTIAL_PAIRS.get(words[-1], ())


class CredentialParameter(NodeRule):
    """
    ## What it does
    Flags a parameter that takes a credential: `password`, `secret`, `api_key`, `access_token`,
    `client_secret`, `private_key`, `auth_ticket`, `session_key`, `otp_code`..., and `token`, `key`,
    `ticket`, `session`, `session_id`, `cookie` alone when the description talks about
    authentication. Pagination tokens (`page_token`, `next_token`) and LLM token counts
    (`max_tokens`) are not flagged.

    ## Why is this bad?
    A credential in a parameter passes through the model: it sits in the conversation, in logs
    and traces, and a prompt injection can ask the model to put it somewhere else. Credentials
    belong in the server's configuration or the client's auth layer, never in the context.

    ## Example
    ```json
    {"api_key": {"type": "string", "description": "Your API key for the weather service."}}
    ```

    ## Use instead
    Read the key from the server's environment or from the MCP client's auth; drop the parameter.
    ```json
    {"city": {"type": "string", "description": "City to get the weather for, e.g. Paris."}}
    ```

    ## Options
    None.

    ## Trade-off
    Only names are judged (and descriptions for the ambiguous `token`/`key`); a credential
    hidden in a field called `config` is not found.

    ## Fix safety
    No automatic fix: removing the parameter changes the interface.
    """

    severity = Severity.WARNING
    summary = "a password/token/api_key/secret parameter: credentials should not pass through the model"
    nodes = Nodes.NAMED_PROPERTIES

    def applies_to_name(self, name: str) -> bool:
        """A credential word or pair at the end, or `token`/`key` (a credential if the description says so)."""
        words = split_name(name)
        if not words or not _NOT_CREDENTIAL.isdisjoint(words):
            return False
        if words[-1] in CREDENTIAL_WORDS or _is_credential_pair(words) or words[-1] in _AMBIGUOUS_CREDENTIALS:
            return True
        return len(words) >= 2 and (words[-2], words[-1]) == ("session", "id")

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        words = node.words
        if not (words[-1] in CREDENTIAL_WORDS or _is_credential_pair(words)):
            auth_text = _AUTH_TEXT if words[-1] in ("token", "key") else _SIGN_IN_TEXT
            if not auth_text.search(node.description):
                return
        yield Finding(
            f"`{node.property_name}` takes a credential through the model; keep secrets in the server's "
            "configuration or the client's auth layer",
            node.pointer,
            key=True,
            data={"parameter": node.property_name},
        )
