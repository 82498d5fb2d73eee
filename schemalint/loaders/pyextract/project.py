"""What a name is, followed through the imports of the user's project: a FastMCP / MCP server
object, a server class or a function that makes a server.

Multi-module servers make the server in one module (`mcp = FastMCP("x")` in `server.py`) and
decorate tools in others (`from ..server import mcp`). Imports are followed only to files under the
project root (the nearest folder with `.git`, `pyproject.toml`, `setup.py`, `setup.cfg` or
`.schemalint.toml`), read and parsed with libcst; nothing is imported or run. Parsed modules are
kept per process (keyed by modification time and size) and each name follows at most MAX_HOPS
imports, so a run over a package parses each imported module once.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import libcst as cst

from schemalint.loaders import LoadError, read_toml
from schemalint.loaders.pyextract.source import SourceModule, dotted_name, parse_module, small_statements

ROOT_MARKERS = (".git", "pyproject.toml", "setup.py", "setup.cfg", ".schemalint.toml")
#: imports followed for one name (re-exports through `__init__.py` files, factories, subclasses)
MAX_HOPS = 6
#: larger modules are not read to learn what a name is
MAX_MODULE_BYTES = 2 * 1024 * 1024
#: the libraries' server classes: short name -> framework, keyed by the top package
_SERVER_CLASSES = {("fastmcp", "FastMCP"): "fastmcp", ("mcp", "FastMCP"): "mcp", ("mcp", "MCPServer"): "mcp"}
_AGENT_CLASSES = {("pydantic_ai", "Agent"): "pydantic-ai"}

Kind = Literal["object", "class", "factory"]


@dataclass(frozen=True)
class Server:
    """A name that is (`object`), makes (`class`) or returns (`factory`) a tool-registering object."""

    framework: str
    kind: Kind


def library_class(qualified: str) -> Server | None:
    """`fastmcp.FastMCP`, `mcp.server.fastmcp.FastMCP`, `pydantic_ai.Agent` ... as a server class."""
    root, short = qualified.split(".")[0], qualified.rsplit(".", 1)[-1]
    framework = _SERVER_CLASSES.get((root, short)) or _AGENT_CLASSES.get((root, short))
    return Server(framework, "class") if framework else None


@functools.lru_cache(maxsize=1024)
def project_root(directory: Path) -> Path:
    """The nearest folder at or above `directory` holding a root marker; without one, the folder
    holding the outermost package (`__init__.py` chain) around `directory`. A folder without
    `__init__.py` inside a package is a namespace subpackage (`pkg/tools/`) of that package."""
    current = directory
    while True:
        if any((current / marker).exists() for marker in ROOT_MARKERS):
            return current
        if current.parent == current:
            break
        current = current.parent
    current = directory
    while current.parent != current and (
        (current / "__init__.py").is_file() or (current.parent / "__init__.py").is_file()
    ):
        current = current.parent
    return current


@functools.lru_cache(maxsize=256)
def _parsed(path: Path, mtime_ns: int, size: int) -> SourceModule | None:
    """The module at `path` (the stat values key the cache, so an edited file is read again)."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
        return parse_module(text, str(path), every_statement=True)
    except (OSError, UnicodeDecodeError, LoadError):
        return None


class Project:
    """Name resolution for the modules of one project, seen from the file being linted."""

    def __init__(self, file: Path) -> None:
        self.file = file.resolve()
        self.root = project_root(self.file.parent)

    @classmethod
    def of(cls, path: str) -> Project | None:
        file = Path(path)
        return cls(file) if file.parent.resolve().is_dir() else None

    def declared_framework(self) -> str | None:
        """`fastmcp` or `mcp` when the root's pyproject.toml depends on it (fastmcp first)."""
        names = {_requirement_name(r) for r in self._requirements()}
        return next((framework for framework in ("fastmcp", "mcp") if framework in names), None)

    def pins_fastmcp_2(self) -> bool:
        """True when the root's pyproject.toml allows only fastmcp 2.x (`fastmcp>=2.10,<3`, `==2.14.7`,
        `~=2.14`, poetry `^2.10`), so its tools are built as fastmcp 2 built them. The project's own
        declaration decides, never what happens to be installed, so every machine reads the same tools."""
        for requirement in self._requirements():
            if _requirement_name(requirement) == "fastmcp":
                return _excludes_3_and_later(requirement)
        return False

    def _requirements(self) -> list[str]:
        """PEP 508 strings of `[project].dependencies`, and poetry's as `name spec`."""
        pyproject = self.root / "pyproject.toml"
        try:
            data = read_toml(pyproject) if pyproject.is_file() else {}
        except LoadError:
            return []
        project = data.get("project", {}) if isinstance(data.get("project"), dict) else {}
        requirements = [r for r in project.get("dependencies", []) if isinstance(r, str)]
        poetry = data.get("tool", {}).get("poetry", {}) if isinstance(data.get("tool"), dict) else {}
        if isinstance(poetry, dict) and isinstance(poetry.get("dependencies"), dict):
            for name, spec in poetry["dependencies"].items():
                version = spec.get("version") if isinstance(spec, dict) else spec
                requirements.append(f"{name} {version}" if isinstance(version, str) else str(name))
        return requirements

    def module(self, path: Path) -> SourceModule | None:
        """The parsed module at `path`, if it is a regular file under the root and small enough."""
        try:
            resolved = path.resolve()
            resolved.relative_to(self.root)
            info = resolved.stat()
        except (OSError, ValueError):
            return None
        if not resolved.is_file() or info.st_size > MAX_MODULE_BYTES:
            return None
        return _parsed(resolved, info.st_mtime_ns, info.st_size)

    def module_file(self, module: str, importer: Path) -> Path | None:
        """The file of `module` (`..common.server`, `pkg.server`) imported from `importer`."""
        level = len(module) - len(module.lstrip("."))
        parts = [part for part in module[level:].split(".") if part]
        if level:
            base = importer.parent
            for _ in range(level - 1):
                base = base.parent
            bases = [base]
        else:
            bases = self._absolute_bases(importer)
        for base in bases:
            candidate = base.joinpath(*parts)
            files = [candidate.with_suffix(".py")] if parts else []
            files.append(candidate / "__init__.py")
            for file in files:
                if file.is_file() and _is_within(file, self.root):
                    return file
        return None

    def _absolute_bases(self, importer: Path) -> list[Path]:
        """Where `import pkg.x` is looked for: the folder above the importer's outermost package
        (what Python puts on sys.path to run it), the root and the root's `src/`."""
        package_parent = importer.parent
        while (package_parent / "__init__.py").is_file() and package_parent != self.root:
            package_parent = package_parent.parent
        bases: list[Path] = []
        for base in (package_parent, self.root, self.root / "src"):
            if base not in bases and base.is_dir() and _is_within(base, self.root):
                bases.append(base)
        return bases

    def imported(self, qualified: str, importer: Path, hops: int) -> Server | None:
        """What `qualified` (an imported name, `..server.mcp` or `pkg.server.mcp`) is."""
        if hops > MAX_HOPS:
            return None
        library = library_class(qualified)
        if library is not None:
            return library
        found = self._member(qualified, importer)
        return Names(found[1], found[0], self, hops + 1).what(found[2]) if found is not None else None

    def imported_function(
        self, qualified: str, importer: Path, hops: int = 0
    ) -> tuple[SourceModule, cst.FunctionDef] | None:
        """The module-level function `qualified` (`.tools.search`, `pkg.tools.search`) names, with
        its module; re-exports (`from .search import search` in `tools/__init__.py`) are followed."""
        found = self._member(qualified, importer) if hops <= MAX_HOPS else None
        if found is None:
            return None
        file, source, name = found
        defined = [f for f in source.functions.get(name, []) if not source.is_nested(f)]
        if defined:
            return source, defined[-1]
        if name in source.imports:
            return self.imported_function(source.imports[name], file, hops + 1)
        return None

    def _member(self, qualified: str, importer: Path) -> tuple[Path, SourceModule, str] | None:
        """The module file, parsed module and member name of `qualified`, a name a module defines."""
        level = len(qualified) - len(qualified.lstrip("."))
        parts = qualified[level:].split(".")
        for split in range(len(parts) - 1, -1, -1):
            member = parts[split:]
            if len(member) != 1:
                continue  # `module.obj.attr`: not a name defined in a module
            file = self.module_file("." * level + ".".join(parts[:split]), importer)
            if file is None:
                continue
            source = self.module(file)
            return (file, source, member[0]) if source is not None else None
        return None


class Names:
    """What the names of one module are, following its imports through `project`."""

    def __init__(self, source: SourceModule, file: Path | None, project: Project | None, hops: int = 0) -> None:
        self.source = source
        self.file = file
        self.project = project
        self.hops = hops
        self._visiting: set[str] = set()
        #: answers to `what` asked from outside (a file asks about its server name once per tool)
        self._known: dict[str, Server | None] = {}

    def what(self, dotted: str) -> Server | None:
        if self.hops > MAX_HOPS or dotted in self._visiting:
            return None
        outermost = not self._visiting
        if outermost and dotted in self._known:
            return self._known[dotted]
        self._visiting.add(dotted)
        try:
            found = self._what(dotted)
        finally:
            self._visiting.discard(dotted)
        if outermost:  # an inner answer may be cut short by the cycle guard: not kept
            self._known[dotted] = found
        return found

    def _what(self, dotted: str) -> Server | None:
        head = dotted.split(".")[0]
        if head in self.source.imports:
            qualified = self.source.imports[head] + dotted[len(head) :]
            library = library_class(qualified)
            if library is not None or self.project is None or self.file is None:
                return library
            return self.project.imported(qualified, self.file, self.hops)
        if dotted in self.source.classes:
            return self._class(self.source.classes[dotted])
        if dotted in self.source.functions:
            return self._factory(self.source.functions[dotted][0])
        for value in reversed(self.source.assignments.get(dotted, [])):
            made = self.made_by(value)
            if made is not None:
                return made
        return None

    def made_by(self, value: cst.BaseExpression) -> Server | None:
        """The server an expression makes: `FastMCP(...)`, `MyServer(...)`, `create_server()`."""
        if not isinstance(value, cst.Call):
            return None
        name = dotted_name(value.func)
        maker = self.what(name) if name else None
        if maker is not None and maker.kind in ("class", "factory"):
            return Server(maker.framework, "object")
        return None

    def annotation(self, node: cst.BaseExpression | None) -> Server | None:
        """A parameter or return annotation naming a server class (`FastMCP`, `"FastMCP"`)."""
        if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str):
            name: str | None = node.evaluated_value.strip()
        else:
            name = dotted_name(node)
        if not name or not all(part.isidentifier() for part in name.split(".")):
            return None
        found = self.what(name)
        return found if found is not None and found.kind == "class" else None

    def _class(self, node: cst.ClassDef) -> Server | None:
        for base in node.bases:
            name = dotted_name(base.value)
            found = self.what(name) if name and name != node.name.value else None
            if found is not None and found.kind == "class":
                return found
        return None

    def _factory(self, function: cst.FunctionDef) -> Server | None:
        """A function whose return annotation is a server class, or that returns a server it makes."""
        if function.returns is not None:
            found = self.annotation(function.returns.annotation)
            if found is not None:
                return Server(found.framework, "factory")
        returns = [s.value for s in small_statements(function.body) if isinstance(s, cst.Return)]
        for value in returns:  # a bare `return` is None: neither a call nor a name
            made = self.made_by(value) if isinstance(value, cst.Call) else None
            if made is None and isinstance(value, cst.Name) and value.value != function.name.value:
                found = self.what(value.value)
                made = found if found is not None and found.kind == "object" else None
            if made is not None:
                return Server(made.framework, "factory")
        return None


def _requirement_name(requirement: str) -> str:
    """`mcp[cli]>=1.2` -> `mcp`."""
    return re.split(r"[\s\[<>=!~;@(]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


@functools.lru_cache(maxsize=64)
def _excludes_3_and_later(requirement: str) -> bool:
    """Whether a requirement admits no version from 3.0 on; poetry's `^2.10`/`~2.10` read as `>=2.10,<3`."""
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    name, _, spec = requirement.partition(" ")
    poetry_major = re.fullmatch(r"[\^~]\s*(\d+)(?:\.[\d.*]+)?", spec.strip())
    try:
        if poetry_major is not None:
            specifier = SpecifierSet(f"<{int(poetry_major.group(1)) + 1}")
        elif spec.strip() and spec.strip()[0] not in "<>=!~":
            specifier = SpecifierSet(f"=={spec.strip()}") if spec.strip() != "*" else SpecifierSet()
        else:
            specifier = Requirement(name + spec if spec else requirement).specifier
    except (InvalidRequirement, InvalidSpecifier):
        return False
    return bool(specifier) and not any(specifier.contains(v, prereleases=True) for v in ("3.0", "4.0", "5.0", "99"))


def _is_within(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root)
    except (OSError, ValueError):
        return False
    return True
