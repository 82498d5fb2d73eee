"""What a tool *does*: its action verb and action kind, read from its name and description.

Cosine similarity of descriptions cannot tell `lock_door` from `unlock_door`: the texts share every
word but one. The action is what separates them, so SL502 compares actions next to the embeddings:
opposite actions (lock/unlock, approve/reject, 冻结/解冻), reads against writes, and different kinds
of write are kept apart; the same kind of action on the same thing is what makes two tools
interchangeable. The lexicon is generic English and Chinese tool vocabulary, not tuned to any set.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from schemalint.lazy_pattern import LazyPattern


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


READ = "read"
CREATE = "create"
UPDATE = "update"
DELETE = "delete"
SEND = "send"
EXECUTE = "execute"
COMPUTE = "compute"
#: umbrella verbs ("manage", "control") cover several kinds of write
MANAGE = "manage"

_EN_VERBS: dict[str, tuple[str, ...]] = {
    READ: _words(
        "get fetch retrieve read list search find query lookup look show view display describe check track "
        "return returns browse inspect count read_only lookup_by see monitor watch peek poll scan explore "
        "enumerate locate discover filter load tell tells report audit verify validate preview export download "
        "summarise summarize"
    ),
    CREATE: _words(
        "create add new make open book reserve schedule register insert submit file log record upload save "
        "store generate draft compose write plan enroll enrol request apply issue raise build provision spawn "
        "allocate copy duplicate clone import sign put append attach"
    ),
    UPDATE: _words(
        "update set change edit modify adjust rename move configure toggle patch replace renew extend resize "
        "reschedule assign tag label mark rate rank reorder sort merge set_up setup upgrade migrate reset fill "
        "correct fix overwrite sync synchronise synchronize switch turn tune scale grant revoke enable disable "
        "lock unlock protect unprotect freeze unfreeze pin unpin star unstar follow unfollow block unblock mute "
        "unmute archive unarchive restore hide unhide approve reject decline accept deny confirm suspend "
        "connect disconnect reactivate activate deactivate pause resume release claim close reopen subscribe "
        "unsubscribe join leave invite kick ban unban encrypt decrypt checkout checkin"
    ),
    DELETE: _words("delete remove cancel drop destroy purge erase void clear discard detach uninstall unregister"),
    SEND: _words(
        "send post notify email mail message text sms push broadcast announce forward reply respond share deliver "
        "transfer pay refund charge dispatch ship alert remind ping call dial page tweet publish"
    ),
    EXECUTE: _words(
        "run execute start stop restart trigger launch invoke call_out deploy play perform process kick_off "
        "boot reboot shutdown shut halt capture retry rerun build_and_run test end finish"
    ),
    COMPUTE: _words(
        "calculate compute convert translate estimate quote predict forecast analyze analyse classify detect "
        "extract parse format render transcribe summarise_text geocode resolve evaluate score compare measure "
        "exchange think reflect reason ponder brainstorm"
    ),
    MANAGE: _words("manage control handle administer operate maintain"),
}
#: verbs that name no one action but all that can be done to an object
UMBRELLA_VERBS = frozenset(_EN_VERBS[MANAGE])

_ZH_VERBS: dict[str, tuple[str, ...]] = {
    READ: _words(
        "查询 获取 查看 查找 搜索 检索 列出 读取 浏览 显示 返回 统计 检查 查 看 跟踪 追踪 监控 下载 导出 核对 预览 找"
    ),
    CREATE: _words(
        "创建 新建 添加 新增 增加 预订 预约 安排 登记 提交 上传 保存 生成 录入 申请 发起 开设 开 建立 记录 写入"
    ),
    UPDATE: _words(
        "修改 更新 设置 设定 调整 调节 更改 变更 编辑 切换 重命名 移动 分配 指派 标记 续借 续期 延长 "
        "冻结 解冻 锁定 解锁 屏蔽 启用 停用 禁用 开启 关闭 打开 暂停 恢复 "
        "批准 驳回 拒绝 同意 审批 接受 订阅 关注 静音 归档 加入"
    ),
    DELETE: _words("删除 移除 取消 清除 作废 撤销 注销 清空"),
    SEND: _words("发送 通知 推送 转发 回复 分享 转账 付款 支付 退款 发 提醒 广播 发布"),
    EXECUTE: _words("运行 执行 启动 重启 停止 播放 触发 部署 开始"),
    COMPUTE: _words("计算 转换 换算 翻译 估算 预测 分析 识别 提取 解析 生成摘要 比较 评估"),
    MANAGE: _words("管理 控制 操作 处理 维护"),
}

#: pairs of actions that undo each other; prefix forms (un-, dis-, de-, re-, 取消, 解) are derived
_EN_OPPOSITES = (
    "lock:unlock enable:disable start:stop open:close approve:reject approve:decline approve:deny accept:decline "
    "accept:reject grant:revoke add:remove attach:detach assign:release assign:unassign suspend:reactivate "
    "suspend:resume pause:resume freeze:unfreeze follow:unfollow block:unblock mute:unmute archive:restore "
    "archive:unarchive subscribe:unsubscribe protect:unprotect encrypt:decrypt install:uninstall connect:disconnect "
    "show:hide publish:unpublish import:export upload:download increase:decrease create:delete buy:sell "
    "deposit:withdraw login:logout mount:unmount pin:unpin star:unstar like:unlike join:leave checkin:checkout "
    "checkout:return borrow:return lend:return arm:disarm activate:deactivate register:unregister "
    "capture:void capture:cancel authorize:void read:write get:set ban:unban hold:release enroll:unenroll "
    "apply:withdraw include:exclude allow:deny whitelist:blacklist promote:demote merge:split zip:unzip "
    "compress:decompress encode:decode expand:collapse maximize:minimize upvote:downvote"
)
_ZH_OPPOSITES = (
    "冻结:解冻 锁定:解锁 打开:关闭 开启:关闭 启用:停用 启用:禁用 暂停:恢复 批准:驳回 批准:拒绝 同意:拒绝 接受:拒绝 "
    "添加:删除 添加:移除 加入:移除 加入:退出 订阅:取消订阅 关注:取消关注 屏蔽:取消屏蔽 拉黑:取消拉黑 静音:取消静音 "
    "上传:下载 导入:导出 加密:解密 绑定:解绑 挂起:恢复 归档:恢复 借出:归还 借:还 启动:停止 开始:结束 增加:减少 "
    "买入:卖出 存入:取出 登录:退出 发布:撤回 置顶:取消置顶 收藏:取消收藏"
)


def _opposite_pairs() -> frozenset[frozenset[str]]:
    pairs = set()
    for spec in (_EN_OPPOSITES, _ZH_OPPOSITES):
        for item in spec.split():
            left, right = item.split(":")
            pairs.add(frozenset((left, right)))
    return frozenset(pairs)


OPPOSITES = _opposite_pairs()
_EN_INDEX = {verb: kind for kind, verbs in _EN_VERBS.items() for verb in verbs}
#: every English verb the lexicon knows
VERBS = frozenset(_EN_INDEX)
#: longest first, so 取消订阅 wins over 取消 and 订阅
_ZH_ORDERED = sorted(((verb, kind) for kind, verbs in _ZH_VERBS.items() for verb in verbs), key=lambda p: -len(p[0]))
_ZH_NEGATED = LazyPattern(r"(取消|解除)([\u4e00-\u9fff]{2})", needs_non_ascii=True)
CJK = LazyPattern(r"[\u3400-\u9fff\uf900-\ufaff]", needs_non_ascii=True)


_CLAUSE_END = re.compile(r"[.;。；!?！？\n]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_ACRONYM = re.compile(r"([A-Z]+)([A-Z][a-z])")
_SEPARATORS = re.compile(r"[^A-Za-z0-9]+")


@lru_cache(maxsize=65536)
def identifier_words(name: str) -> tuple[str, ...]:
    """`getMyOpenTickets` / `get_my-open.tickets` -> ("get", "my", "open", "tickets"), cached: a set
    repeats the same parameter names and verbs thousands of times."""
    if not name.islower():  # snake_case names (most) have no case change to split at
        name = _ACRONYM.sub(r"\1 \2", _CAMEL.sub(r"\1 \2", name))
    return tuple(w for w in _SEPARATORS.split(name.lower()) if w)


def split_identifier(name: str) -> list[str]:
    """`getMyOpenTickets` / `get_my-open.tickets` -> ["get", "my", "open", "tickets"]."""
    return list(identifier_words(name))


@lru_cache(maxsize=65536)
def normalized_identifier(name: str) -> str:
    """`userId` / `user-id` / `USER_ID` -> `user_id`: one spelling for names that only differ in case
    and separators."""
    return "_".join(identifier_words(name))


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    """Third-person and -ing forms back to the base verb: returns -> return, finds -> find."""
    if word in _EN_INDEX:
        return word
    for suffix, replacement in (("ies", "y"), ("es", ""), ("s", ""), ("ing", ""), ("ing", "e"), ("ed", ""), ("d", "")):
        if word.endswith(suffix) and (word[: -len(suffix)] + replacement) in _EN_INDEX:
            return word[: -len(suffix)] + replacement
    return word


class Action(NamedTuple):
    """The tool's main verb (normalised) and its kind; both None when nothing was recognised.

    A named tuple, not a dataclass: pairs of actions key a cache, and tuples hash and compare in C."""

    verb: str | None
    kind: str | None
    #: all verbs seen in the name and the first clause of the description
    verbs: frozenset[str] = frozenset()


def _first_clause(description: str) -> str:
    return _CLAUSE_END.split(description.strip(), maxsplit=1)[0]


def _zh_verbs(text: str) -> list[tuple[int, str, str]]:
    found: list[tuple[int, str, str]] = []
    for match in _ZH_NEGATED.finditer(text):
        found.append((match.start(), match.group(0), UPDATE))
    taken = {i for pos, verb, _ in found for i in range(pos, pos + len(verb))}
    for verb, kind in _ZH_ORDERED:
        for match in re.finditer(re.escape(verb), text):
            span = set(range(match.start(), match.end()))
            if span & taken:
                continue
            found.append((match.start(), verb, kind))
            taken |= span
    return sorted(found)


@lru_cache(maxsize=65536)
def tool_action(name: str, description: str) -> Action:
    """The main action: the name's first word when it is a verb (`get_order`), else the first verb of
    the description's first clause ("Show the commit history" for `git_log`), else any verb in the name.

    Name words are matched exactly (`news` is not `new`); description words are stemmed (`Returns`).
    """
    name_words = identifier_words(name)
    name_verbs = [w for w in name_words if w in _EN_INDEX]
    clause = _first_clause(description)
    if CJK.search(clause):
        found = _zh_verbs(clause)
        described = [verb for _, verb, _ in found]
        kinds = {verb: kind for _, verb, kind in found}
    else:
        words = [_stem(w) for w in _LATIN_WORD.findall(clause.lower())[:4]]
        described = [w for w in words if w in _EN_INDEX]
        kinds = {w: _EN_INDEX[w] for w in described}
    verbs = frozenset(name_verbs + described)
    if name_words and name_words[0] in _EN_INDEX:
        return Action(name_words[0], _EN_INDEX[name_words[0]], verbs)
    if described:
        return Action(described[0], kinds[described[0]], verbs)
    if name_verbs:
        return Action(name_verbs[0], _EN_INDEX[name_verbs[0]], verbs)
    return Action(None, None, verbs)


def _negated_base(verb: str) -> str | None:
    """`unlock` -> `lock`, `disable` -> `able`, `取消订阅` -> `订阅`, `解冻` stays (listed explicitly)."""
    for prefix in ("un", "dis", "de", "取消", "解除"):
        if verb.startswith(prefix) and len(verb) > len(prefix) + 1:
            return verb[len(prefix) :]
    return None


@lru_cache(maxsize=65536)
def are_opposite(left: str, right: str) -> bool:
    if left == right:
        return False
    if frozenset((left, right)) in OPPOSITES:
        return True
    return _negated_base(left) == right or _negated_base(right) == left


def opposite_actions(a: Action, b: Action) -> bool:
    """Whether the two tools' main verbs (or, failing that, any of their verbs) undo each other."""
    if a.verb and b.verb and are_opposite(a.verb, b.verb):
        return True
    shared = a.verbs & b.verbs
    return any(are_opposite(x, y) for x in a.verbs - shared for y in b.verbs - shared)


#: verbs that name the same action: tools that differ only by one of these pairs do the same job (a
#: partial and a full update, `apply` and `create` of a manifest, `replace` and `update` of a record)
_SYNONYMS = tuple(
    frozenset(group.split())
    for group in (
        "get fetch retrieve read show view describe inspect check lookup display",
        "list enumerate browse",
        "search find query lookup filter",
        "create add new make insert generate build apply upsert put",
        "update edit modify change set adjust patch put replace overwrite apply upsert",
        "delete remove destroy drop erase purge",
        "send post publish share",
        "run execute start launch trigger invoke",
        "verify validate",
    )
)


@lru_cache(maxsize=65536)
def are_synonyms(left: str, right: str) -> bool:
    return left != right and any(left in group and right in group for group in _SYNONYMS)


#: how interchangeable two kinds of action are (symmetric; missing pairs are 0.25)
_KIND_AFFINITY: dict[frozenset[str], float] = {
    frozenset((CREATE, UPDATE)): 0.55,
    frozenset((CREATE, SEND)): 0.55,
    frozenset((UPDATE, EXECUTE)): 0.55,
    frozenset((READ, COMPUTE)): 0.6,
    frozenset((SEND, EXECUTE)): 0.4,
    frozenset((DELETE, UPDATE)): 0.35,
}
UNKNOWN_AFFINITY = 0.75
_DEFAULT_AFFINITY = 0.2


@lru_cache(maxsize=65536)  # a set has few distinct actions, and pairs are scored by the thousand
def action_affinity(a: Action, b: Action) -> float:
    """1.0 for the same kind of action or synonyms, lower for different kinds, lowest for opposites."""
    if opposite_actions(a, b):
        return 0.1
    if a.verb and b.verb and are_synonyms(a.verb, b.verb):
        return 1.0
    if a.kind is None or b.kind is None:
        return UNKNOWN_AFFINITY
    if a.kind == b.kind:
        return 1.0
    if MANAGE in (a.kind, b.kind):
        return 0.85 if READ not in (a.kind, b.kind) else 0.3
    return _KIND_AFFINITY.get(frozenset((a.kind, b.kind)), _DEFAULT_AFFINITY)
