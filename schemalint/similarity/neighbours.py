"""Each text's nearest neighbours, remembered across runs, so a warm run needs no vectors and no search.

`candidate_pairs` (pairs.py) selects, for each row i, the first `top_k` of the j != i whose cosine is
at least `floor`, in the order (cosine descending, j); a pair is a candidate when either row selects
the other. This module keeps each row's list of neighbours in that order (`NeighbourRows`), stores
it in the cache (`<cache-dir>/neighbours/<model key>/<name>.slnb`) and serves it back:

- the same texts again (a re-run): the candidates come from the stored lists, with no vector read,
  no numpy import and no search;
- a few texts changed, added or removed (an edited description): the lists of the nearest stored
  state (the one sharing the most texts) are carried over and only what the change touches is
  computed (`plan_update`, `finish_update`): the rows of the new texts, the new texts' cosines with
  every other row, and the rest of a row only when it lost one of its first `top_k` neighbours;
- otherwise the full search, whose result is stored for the next run.

The invariant that makes the update exact: a row's list holds the first `len(list)` entries of the
row's whole ordered neighbour list, and either all of them (`complete`) or at least `top_k`. Its
first `top_k` entries are then exactly what the full search selects for that row. Removing an
entry keeps a prefix a prefix (when it leaves fewer than `top_k` entries of an incomplete list, the
row is computed again); a new entry is inserted when it ranks before the list's last entry (or
anywhere in a complete list), since the entries after the last one are unknown. Carried entries
keep their order because only texts that kept their relative order are carried (`_in_order`: equal
cosines are ordered by index); a text that moved counts as new.

States are checked files (store.py: a damaged one is ignored, writes are atomic), at most
MAX_STATES per model; a state is found by its set's exact name, or, for the update, by min-hash
signatures in its name (store.signed_name).
"""

from __future__ import annotations

import bisect
import struct
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from schemalint.similarity import store as store_module
from schemalint.similarity.cache import KEY_BYTES, from_little_endian, sha256, to_little_endian
from schemalint.similarity.store import UINT, CheckedFiles, signed_name

if TYPE_CHECKING:
    from schemalint.similarity.pairs import Vectors

#: states kept per model (then the least recently used quarter is deleted): one per tool set linted
MAX_STATES = 256
#: a carried row keeps up to this many times `top_k` neighbours, so that it survives losing a few
RESERVE_FACTOR = 2
#: the update is used when it recomputes at most this share of the rows (else the full search is cheaper)
UPDATE_SHARE = 0.125
_OPTIONS = struct.Struct("<dI")  # floor, top_k
_SIZES = struct.Struct("<dIII")  # floor, top_k, texts, entries
_MAGIC = b"SLNB"
_VERSION = 1
_COMPLETE = 1 << 31  # the high bit of a row's length: the list holds every neighbour over the floor

#: one neighbour of a row: (-cosine, index), so that ascending order is the selection order
Entry = tuple[float, int]


@dataclass
class NeighbourRows:
    """Each text's ordered neighbours over `floor` (a prefix of them, see the module docstring)."""

    keys: list[bytes]
    floor: float
    top_k: int
    rows: list[list[Entry]]
    complete: list[bool]

    def candidates(self) -> dict[tuple[int, int], float]:
        """What `candidate_pairs(vectors, floor, top_k)` returns: every row's first top_k neighbours."""
        pairs: dict[tuple[int, int], float] = {}
        for row, entries in enumerate(self.rows):
            for negated, other in entries[: self.top_k]:
                pairs[(row, other) if row < other else (other, row)] = -negated
        return pairs


def from_candidates(
    keys: list[bytes], floor: float, top_k: int, candidates: dict[tuple[int, int], float]
) -> NeighbourRows:
    """The rows behind a full search's candidates. A row's candidate entries hold its first top_k
    neighbours (those it selects) and maybe others (rows that select it), so their first top_k are
    the row's own first top_k, and all of its neighbours when it has fewer."""
    found: list[list[Entry]] = [[] for _ in keys]
    for (left, right), cosine in candidates.items():
        found[left].append((-cosine, right))
        found[right].append((-cosine, left))
    rows = [sorted(entries)[:top_k] for entries in found]
    return NeighbourRows(keys, floor, top_k, rows, [len(entries) < top_k for entries in found])


def full_row(row: int, cosines: list[float], floor: float, cap: int) -> tuple[list[Entry], bool]:
    """A row's first `cap` neighbours from its cosines with every row, and whether that is all of them."""
    found = sorted((-cosine, other) for other, cosine in enumerate(cosines) if cosine >= floor and other != row)
    return found[:cap], len(found) <= cap


@dataclass
class UpdatePlan:
    """What an update carries over from an old state, and which rows it must compute in full."""

    keys: list[bytes]
    #: per new row: the old row's neighbours renumbered (None: computed in full)
    carried: list[list[Entry] | None]
    complete: list[bool]
    #: the new rows without an old counterpart (their texts are new)
    fresh: list[int]
    #: the rows computed in full: the fresh ones and those left with too few neighbours
    recompute: list[int]


def plan_update(old: NeighbourRows, keys: list[bytes], floor: float, top_k: int) -> UpdatePlan | None:
    """How to turn `old` into the rows of `keys`; None when `old` cannot be used (other options,
    nothing in common). A text whose key is in `old` keeps its old row; one that moved relative to
    the others (outside `_in_order`) counts as new."""
    if old.floor != floor or old.top_k != top_k:
        return None
    unmatched: dict[bytes, list[int]] = {}
    for position in range(len(old.keys) - 1, -1, -1):  # popped from the end: the earliest first
        unmatched.setdefault(old.keys[position], []).append(position)
    matched: list[int | None] = []
    for key in keys:
        same = unmatched.get(key)
        matched.append(same.pop() if same else None)
    old_of_new = _in_order(matched)
    new_of_old = {o: position for position, o in enumerate(old_of_new) if o is not None}
    if not new_of_old:
        return None
    carried: list[list[Entry] | None] = []
    complete: list[bool] = []
    fresh, recompute = [], []
    for position, old_position in enumerate(old_of_new):
        entries = None
        whole = False
        if old_position is not None:
            old_entries = old.rows[old_position]
            entries = [(negated, new_of_old[o]) for negated, o in old_entries if o in new_of_old]
            whole = old.complete[old_position]
            if not whole and len(entries) < top_k:
                entries = None
        else:
            fresh.append(position)
        if entries is None:
            recompute.append(position)
        carried.append(entries)
        complete.append(whole)
    return UpdatePlan(keys, carried, complete, fresh, recompute)


def _in_order(matched: list[int | None]) -> list[int | None]:
    """`matched` with only a longest increasing run of its old positions left (the others None), so
    that the texts kept keep their relative order (patience sorting, n log n)."""
    ends: list[int] = []  # ends[n]: the smallest old position ending an increasing run of length n + 1
    end_at: list[int] = []  # the position in `matched` of that end
    before: dict[int, int] = {}  # position -> the previous position of its run
    for position, old_position in enumerate(matched):
        if old_position is None:
            continue
        length = bisect.bisect_left(ends, old_position)
        if length:
            before[position] = end_at[length - 1]
        if length == len(ends):
            ends.append(old_position)
            end_at.append(position)
        else:
            ends[length], end_at[length] = old_position, position
    kept: list[int | None] = [None] * len(matched)
    position = end_at[-1] if end_at else -1
    while position >= 0:
        kept[position] = matched[position]
        position = before.get(position, -1)
    return kept


def finish_update(plan: UpdatePlan, floor: float, top_k: int, cosines: dict[int, list[float]]) -> NeighbourRows:
    """The new rows, given every recomputed row's cosines with all rows (`cosines[row][other]`)."""
    cap = RESERVE_FACTOR * top_k
    rows: list[list[Entry]] = []
    complete: list[bool] = []
    for position, entries in enumerate(plan.carried):
        if entries is None:
            entries, whole = full_row(position, cosines[position], floor, cap)
        else:
            whole = plan.complete[position]
            for fresh in plan.fresh:
                cosine = cosines[fresh][position]
                entry = (-cosine, fresh)
                if cosine < floor or (not whole and entry > entries[-1]):
                    continue  # under the floor, or after the known prefix
                bisect.insort(entries, entry)
                if len(entries) > cap:
                    del entries[cap:]
                    whole = False
        rows.append(entries)
        complete.append(whole)
    return NeighbourRows(plan.keys, floor, top_k, rows, complete)


def row_cosines(vectors: Vectors, rows: list[int]) -> dict[int, list[float]]:
    """Each of `rows`' cosines with every row (`pairs.dot`, the bits the full search gives)."""
    from schemalint.similarity.pairs import pair_cosines

    count = len(vectors)
    every = range(count)
    pairs = [(row, other) for row in rows for other in every]
    cosines = pair_cosines(vectors, pairs)
    return {row: cosines[n * count : (n + 1) * count] for n, row in enumerate(rows)}


class NeighbourStore:
    """The states of one model in the cache (`cache_dir` None: no cache, nothing stored). A state's
    file name is its set's signatures, then a hash of its options and keys in order (the exact name)."""

    def __init__(self, cache_dir: Path | None, model_key: str) -> None:
        self.files = CheckedFiles(cache_dir, "neighbours", model_key, _MAGIC, _VERSION, MAX_STATES)

    def _name(self, keys: list[bytes], floor: float, top_k: int) -> str:
        exact = sha256(_OPTIONS.pack(floor, top_k) + b"".join(keys)).hexdigest()[:24]
        return signed_name(keys, exact)

    def exact(self, keys: list[bytes], floor: float, top_k: int) -> NeighbourRows | None:
        """The stored state of exactly these texts in this order, if any."""
        raw = _RawState.parse(self.files.read(self._name(keys, floor, top_k)), floor, top_k)
        state = None if raw is None else raw.decode()
        return state if state is not None and state.keys == keys else None

    def nearest(self, keys: list[bytes], floor: float, top_k: int) -> NeighbourRows | None:
        """Of the stored states (same options) like `keys` (CheckedFiles.similar), the one sharing the
        most texts with it."""
        raw = self.files.nearest(keys, lambda payload: _RawState.parse(payload, floor, top_k), _RawState.keys)
        return None if raw is None else raw.decode()

    def save(self, state: NeighbourRows) -> None:
        self.files.write(self._name(state.keys, state.floor, state.top_k), encode_state(state))


def encode_state(state: NeighbourRows) -> bytes:
    """A state file's payload: options and sizes, then keys, row lengths (with the complete bit),
    indices, cosines."""
    lengths = array(
        UINT, (len(row) | (_COMPLETE if whole else 0) for row, whole in zip(state.rows, state.complete, strict=True))
    )
    others = array(UINT, (other for row in state.rows for _, other in row))
    cosines = array("d", (-negated for row in state.rows for negated, _ in row))
    sizes = _SIZES.pack(state.floor, state.top_k, len(state.keys), len(others))
    return b"".join(
        (sizes, b"".join(state.keys), to_little_endian(lengths), to_little_endian(others), to_little_endian(cosines))
    )


@dataclass
class _RawState:
    """A state file's payload, decoded only when used."""

    floor: float
    top_k: int
    count: int
    entries: int
    body: bytes

    @classmethod
    def parse(cls, payload: bytes | None, floor: float, top_k: int) -> _RawState | None:
        """The payload's parts, when it is a state of these options and of a consistent size."""
        if payload is None or len(payload) < _SIZES.size:
            return None
        stored_floor, stored_top_k, count, entries = _SIZES.unpack_from(payload)
        if stored_floor != floor or stored_top_k != top_k or count == 0:
            return None
        if len(payload) != _SIZES.size + count * (KEY_BYTES + 4) + entries * (4 + 8):
            return None
        return cls(floor, top_k, count, entries, payload[_SIZES.size :])

    def keys(self) -> list[bytes]:
        return [self.body[offset : offset + KEY_BYTES] for offset in range(0, self.count * KEY_BYTES, KEY_BYTES)]

    def decode(self) -> NeighbourRows | None:
        """The rows (None when they break the invariant or point outside the set)."""
        keys_end = self.count * KEY_BYTES
        lengths_end = keys_end + 4 * self.count
        others_end = lengths_end + 4 * self.entries
        lengths = from_little_endian(UINT, self.body[keys_end:lengths_end])
        others = from_little_endian(UINT, self.body[lengths_end:others_end])
        cosines = from_little_endian("d", self.body[others_end:])
        sizes = [length & ~_COMPLETE for length in lengths]
        complete = [bool(length & _COMPLETE) for length in lengths]
        if sum(sizes) != self.entries or (self.entries and max(others) >= self.count):
            return None
        if any(size < self.top_k and not whole for size, whole in zip(sizes, complete, strict=True)):
            return None
        negated = [-cosine for cosine in cosines]
        rows: list[list[Entry]] = []
        start = 0
        for size in sizes:
            rows.append(list(zip(negated[start : start + size], others[start : start + size], strict=True)))
            start += size
        return NeighbourRows(self.keys(), self.floor, self.top_k, rows, complete)


def neighbour_pairs(
    keys: list[bytes],
    load_vectors: Callable[[bool], Vectors],
    floor: float,
    top_k: int | None,
    store: NeighbourStore,
) -> dict[tuple[int, int], float]:
    """`candidate_pairs(vectors, floor, top_k)` for the texts of `keys`, from the store when it can:
    `load_vectors(rows)` is called only when vectors are needed (`rows`: Python rows are enough, few
    cosines are computed)."""
    from schemalint.similarity.pairs import candidate_pairs

    count = len(keys)
    # every pair over the floor, a small set, or no cache: nothing to keep
    if top_k is None or top_k >= count - 1 or count < store_module.MIN_STORED_SET or store.files.folder is None:
        return candidate_pairs(load_vectors(False), floor, top_k)
    state = store.exact(keys, floor, top_k)
    if state is not None:
        return state.candidates()
    old = store.nearest(keys, floor, top_k)
    plan = None if old is None else plan_update(old, keys, floor, top_k)
    if plan is not None and len(plan.recompute) <= max(1, UPDATE_SHARE * count):
        vectors = load_vectors(len(plan.recompute) * count <= _PYTHON_ROW_DOTS)
        state = finish_update(plan, floor, top_k, row_cosines(vectors, plan.recompute))
    else:
        found = candidate_pairs(load_vectors(False), floor, top_k)
        state = from_candidates(keys, floor, top_k, found)
    store.save(state)
    return state.candidates()


#: an update computing at most this many cosines does it in pure Python (no numpy import)
_PYTHON_ROW_DOTS = 40_000
