"""跑馬仔 Paomazai: the Hong Kong / Macau casino mahjong of kongs, self-draws and horses.

Seed 004_4a517c4c696f89f5.txt §香港雀荘と澳門カジノの麻雀・跑馬仔 (2015-08-25); defaults
from RULINGS §paomazai. Four players, 136 tiles (no flowers), four sets and a pair win
without any pattern (役が無くても上がれる), no seven pairs, no chi. Kongs are paid on the
spot; a win by discard (食糊) is 300 from the discarder, a self-draw (自模) 200 from each,
robbing a kong (搶槓糊) 600 from the konger; after a self-draw the winner draws five
horses (奨馬) and is paid 100 by each other player per tile of his seat wind's group.
The dealer (荘) stays on after his own win or a drawn hand (連荘).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from paifu.notation.model import CardsArg, Event, Hand

from . import tiles as T
from ..engine import HandHeader, Match, Payment, RuleOption, ScoreItem, Settlement, Violation, WholeNumber
from .core import (KONG_AIMS, UNSEEN, MahjongEngine, MahjongState, Meld, MissedWinRule, Move, Win, kong_plan, rob_plan,
                      table_aim_choose, wind_of)

SEED = "「香港雀荘と澳門カジノの麻雀・跑馬仔」 (2015-08-25)"  # seed 004_4a517c4c696f89f5.txt
RULING = "docs/rulings.md §paomazai"

OPTIONS = (
    RuleOption("multi_ron", "all", ("all", "head_bump"),
               "several players may win on one discard, each paid by the discarder (all), or only the first in turn order from the discarder (head_bump)", RULING),
    WholeNumber("horses", "5", ("none",), "horses (奨馬) drawn after a self-draw (fewer when the wall has fewer)",
                f"{SEED} ■奨馬の規則 (奨馬で引く枚数は、事前に話し合って決める)", what="a number of horses, 0 or more"),
    RuleOption("replacement_horses", "head", ("head", "tail"),
               "after a self-draw on a kong replacement tile the horses are the next tiles on the draw end (head), "
               "or the tiles after the winning tile at the replacement end (tail)",
               f"{SEED} ■奨馬の規則 (自模上がった牌の次の牌から5枚引く); {RULING}"),
    RuleOption("draw_dealer", "stay", ("stay", "pass"),
               "after a drawn hand (流局) the dealer deals again (stay) or the deal passes to the next seat (pass)",
               f"{SEED} ◆概要 (荘で勝てば連荘となる); {RULING}"),
    RuleOption("furiten", "none", ("none", "temporary"),
               "none: フリテンも殆ど無い; temporary: a player who let a win go by may not win on a discard until his next draw", RULING),
)


# furiten=temporary: a seat that let a win go by may not win on a discard (or rob a kong)
# until its own next draw, a replacement included; a pon passing over it does not end it.
TEMPORARY_FURITEN = MissedWinRule(f"{RULING} (furiten=temporary)", ends_at_own_draw=True, ends_when_skipped=False)


@dataclass(frozen=True)
class Item:
    """One line of the seed's scoring table (■得点一覧)."""

    key: str
    term: str
    name: str
    amount: int
    who_pays: str

    @property
    def condition(self) -> str:
        """Who pays, for ``paifu rules paomazai``'s table of scoring items."""
        return f"{self.amount} from {self.who_pays}"


ITEMS = {
    "kong_concealed": Item("kong_concealed", "暗槓", "concealed kong", 200, "each other player"),
    "kong_direct": Item("kong_direct", "明槓", "direct kong", 300, "the discarder"),
    "kong_added": Item("kong_added", "加槓", "added kong", 100, "each other player"),
    "ron": Item("ron", "食糊", "win on a discard", 300, "the discarder (a dealer's win too: ※親のロンも300点)"),
    "tsumo": Item("tsumo", "自模", "self-drawn win", 200, "each other player"),
    "rob": Item("rob", "搶槓糊", "robbing a kong", 600, "the konger"),
    "horse": Item("horse", "奨馬", "horse of the winner's wind", 100, "each other player, per tile"),
}

# ●奨馬: the tiles that pay for each seat wind (東 南 西 北 = 1z 2z 3z 4z; 白 發 中 = 5z 6z 7z).
HORSE_HONOURS = {0: {"1z"}, 1: {"2z", "7z"}, 2: {"3z", "6z"}, 3: {"4z", "5z"}}
HORSE_RANKS = {0: {1, 5, 9}, 1: {2, 6}, 2: {3, 7}, 3: {4, 8}}


def horse_matches(wind: int, tile: str) -> bool:
    """Whether a horse tile pays the winner of seat wind ``wind`` (0 East .. 3 North)."""
    if tile.endswith("z"):
        return tile in HORSE_HONOURS[wind]
    return T.rank_of(T.tile_index(tile)) in HORSE_RANKS[wind]


def horse_end(rules, win: Win) -> str:
    """The end of the wall the horses (奨馬) come from: the draw end (head), or after a win on
    a kong replacement tile with ``replacement_horses=tail`` the replacement end (tail)."""
    return "tail" if win.replacement and rules["replacement_horses"] == "tail" else "head"


def win_settlement(win: Win, wind: int, horses: list[str], others: list[str]) -> tuple[list[ScoreItem], list[Payment], bool]:
    """A win's items and payments (■得点一覧): 食糊 300 from the discarder, 搶槓糊 600 from the
    konger, 自模 200 from each other player and then 100 from each per horse (奨馬) of the
    winner's seat wind ``wind``; and whether an unseen horse leaves the figures unknown."""
    if win.how != "tsumo":
        item = ITEMS[win.how]
        assert win.payer is not None
        return ([ScoreItem(win.seat, item.name, item.amount, item.term, f"{win.tile} from {win.payer}")],
                [Payment(win.payer, win.seat, item.amount, item.term)], False)
    item = ITEMS["tsumo"]
    items = [ScoreItem(win.seat, item.name, item.amount * len(others), item.term, f"{win.tile}: 200 from each")]
    payments = [Payment(p, win.seat, item.amount, item.term) for p in others]
    good = [t for t in horses if t != UNSEEN and horse_matches(wind, t)]
    if good:
        amount = ITEMS["horse"].amount * len(good)
        payments += [Payment(p, win.seat, amount, f"奨馬 ×{len(good)}") for p in others]
        items.append(ScoreItem(win.seat, "horses", amount * len(others), "奨馬",
                               f"{' '.join(T.sort_codes(good))} match {'東南西北'[wind]}: {len(good)} × 100 from each"))
    return items, payments, UNSEEN in horses


@dataclass
class OneHand:
    """``paifu score paomazai``: a hand scored without a record. The winner is A; on a ron or
    a rob B is the discarder (or the robbed konger); C and D the others."""

    problems: list[str]
    complete: bool = False
    items: list[ScoreItem] = field(default_factory=list)
    payments: list[Payment] = field(default_factory=list)


def score_one(concealed: list[str], melds: list[Meld], tile: str, how: str, wind: int = 1,
              horses: list[str] | None = None) -> OneHand:
    """One winning hand scored by the validator's :func:`win_settlement`: four sets and a pair
    (no pattern needed, no seven pairs), ``wind`` the winner's seat wind (0 East, the dealer),
    ``horses`` the horse tiles drawn after a self-draw."""
    horses = list(horses or [])
    every = [*concealed, *(c for m in melds for c in m.codes()), *horses]
    problems = []
    over = sorted({c for c in every if every.count(c) > 4})
    if over:
        problems.append(f"more than four of {', '.join(over)} (the hand, its sets and the horses together)")
    if any(c.startswith("0") for c in every):
        problems.append("paomazai has no red fives")
    want = 14 - 3 * len(melds)
    if len(concealed) != want:
        sets = f" beside {len(melds)} declared set(s)" if melds else ""
        problems.append(f"{len(concealed)} concealed tiles{sets}: a winning hand holds {want}, the winning tile included")
    if tile not in concealed:
        problems.append(f"the winning tile {tile} is not among the concealed tiles")
    if horses and how != "tsumo":
        problems.append("horses (奨馬) are drawn after a self-draw only")
    if how not in ("tsumo", "ron", "rob"):
        problems.append("a win is tsumo, ron or rob")
    if problems:
        return OneHand(problems)
    if not T.is_complete(T.counts_of(concealed), len(melds)):
        return OneHand([])
    win = Win("A", how, tile, None if how == "tsumo" else "B", T.counts_of(concealed), list(melds))
    items, payments, _ = win_settlement(win, wind, horses, ["B", "C", "D"])
    return OneHand([], True, items, payments)


@dataclass
class PaomazaiState(MahjongState):
    horse_from: str = "head"  # the end of the wall the horses come from (horse_end)


AIM_ROB = ("robbing a kong", "搶槓糊")


class Paomazai(MahjongEngine):
    id = "paomazai"
    title = "跑馬仔 Paomazai"
    seat_counts = (4,)
    options = OPTIONS
    source = SEED
    zero_sum = True  # kongs, wins and horses are paid by the other players
    zero_sum_rule = f"{SEED} §得点一覧: 「各自からその場で200点貰う」「放銃した人から300点貰う」; §奨馬の規則: 「1枚につき、各自から100点貰える」"
    seed_rule = SEED
    dealer_rule = f"{SEED} ◆概要 (荘で勝てば連荘)"
    no_chi_rule = f"{SEED} ◆概要 (チーは出来ないが、ポンとカンが出来る)"
    selfplay_hands = 2
    state_class = PaomazaiState
    scoring_items = ITEMS  # ■得点一覧, for ``paifu rules paomazai``

    def tile_set(self, rules) -> list[str]:
        return T.tile_set("136")

    def expected_dealer(self, match: Match) -> str | None:
        return match.dealer

    def start_from(self, match: Match, header: HandHeader, totals: dict[str, int]) -> str | None:
        """A session written from a later hand: each seat's running total (Start), the hand's
        number and its dealer (East, whose seat wind the horses follow). Every payment of the
        ■得点一覧 and the ■奨馬の規則 is a multiple of 100 points (100, 200, 300, 600), so every
        total is one too; and they add up to 0. Nothing else carries: 荘の得点は特に無い."""
        odd = [s for s in match.seats if totals[s] % 100]
        if odd:
            return (f"{' '.join(f'{s} {totals[s]:+d}' for s in odd)}: every payment is a multiple of 100 points "
                    f"({SEED} ■得点一覧, ■奨馬の規則: 100, 200, 300 or 600), so every total is one too")
        return super().start_from(match, header, totals)

    # -- paifu selfplay --aim ----------------------------------------------------------
    def aim_deal(self, match: Match, number: int, rng: random.Random, aim: str) -> Hand | None:
        """搶槓糊 and the three kongs: a table stacked by the mahjong core's ``rob_plan`` / ``kong_plan``."""
        kinds = sorted(set(self.tile_set(match.rules)))
        plan = rob_plan(kinds, rng, 4) if aim.casefold() in AIM_ROB else kong_plan(kinds, rng, 4, aim.casefold())
        if plan is None:
            return super().aim_deal(match, number, rng, aim)
        return self.aim_stack(match, number, rng, *plan)

    def aim_choose(self, state: MahjongState, legal: list[Move], rng: random.Random, aim: str) -> Move | None:
        if aim.casefold() not in AIM_ROB and aim.casefold() not in KONG_AIMS:
            return super().aim_choose(state, legal, rng, aim)
        return table_aim_choose(self, state, legal, rng, "rob")

    def read_action(self, state: MahjongState, event: Event) -> Move:
        if event.seat is not None and event.verb == "disclose":  # the core's verbs serve every mahjong game
            raise Violation("L306", f"{self.id} has no 'disclose' (亮倒): its verbs are draw, discard, pon, kong, win, pass",
                            self.seed_rule)
        return super().read_action(state, event)

    # -- restrictions ------------------------------------------------------------------
    def missed_rule(self, rules) -> MissedWinRule | None:
        return TEMPORARY_FURITEN if rules["furiten"] == "temporary" else None

    # -- payments ----------------------------------------------------------------------
    def on_kong(self, state: MahjongState, seat: str, meld: Meld, chain: int) -> None:
        item = ITEMS[meld.kind]
        payers = [meld.source] if meld.kind == "kong_direct" else state.others(seat)
        for p in payers:
            assert p is not None
            state.kong_payments.append(Payment(p, seat, item.amount, f"{item.term} {meld.tile}"))
        state.kong_items.append(ScoreItem(seat, item.name, item.amount * len(payers), item.term,
                                          f"{meld.tile}: {item.amount} from {item.who_pays}"))
        state.log.append(item.term)

    def after_win(self, state: MahjongState, win: Win) -> None:
        horses = state.match.rules.int("horses") or 0
        if win.how == "tsumo" and horses and state.wall.live > 0:
            assert isinstance(state, PaomazaiState)
            state.horse_from = horse_end(state.match.rules, win)
            state.over = False
            state.phase = "horses"

    def horses_due(self, state: MahjongState) -> int:
        return min(state.match.rules.int("horses") or 0, state.wall.live)

    def _expected_horses(self, state: MahjongState) -> list[str]:
        """The tiles the horses are (``*`` where the wall is not written), in drawing order."""
        assert isinstance(state, PaomazaiState)
        return state.wall.peek(state.horse_from, self.horses_due(state))

    def read_extra(self, state: MahjongState, event: Event) -> Move | None:
        if event.verb != "horses":
            return None
        if state.phase != "horses":
            raise Violation("L301", "horses (奨馬) are drawn only after a self-drawn win", f"{SEED} ■奨馬の規則")
        codes: list[str] = []
        where: list[int] = []
        for i, arg in enumerate(event.args):
            if not isinstance(arg, CardsArg):
                raise Violation("L305", "horses are tiles: 'horses 159m2z5p'", arg=i)
            codes.extend(arg.cards)
            where.extend([i] * len(arg.cards))
        for k, code in enumerate(codes):
            if code != UNSEEN:
                self._check_in_set(state, code, where[k])
        self._check_horses(state, codes, where)
        return Move(None, "horses", None, None, tuple(codes))

    def _check_horses(self, state: MahjongState, tiles: list[str], where: list[int] | None = None) -> None:
        """Raise when the written horses are not the ones due: their count, the written wall's
        tiles, or more copies of a tile than the set has (``where``: each tile's argument)."""
        due = self.horses_due(state)
        if len(tiles) != due:
            raise Violation("L301", f"{due} horses are drawn here, not {len(tiles)} (the rule: "
                            f"「自模上がった牌の次の牌から5枚引く」; horses={state.match.rules['horses']}, "
                            f"{state.wall.live} tiles left in the wall)", f"{SEED} ■奨馬の規則")
        expected = self._expected_horses(state)
        seen: dict[str, int] = {}
        for k, (t, e) in enumerate(zip(tiles, expected)):
            arg = where[k] if where else None
            if e != UNSEEN:
                if t != UNSEEN and t != e:
                    raise Violation("L301", f"the wall's next tiles are {' '.join(expected)}: horse {k + 1} is {e}, not {t}",
                                    RULING, arg=arg)
            elif t != UNSEEN:
                seen[t] = seen.get(t, 0) + 1
                if state.located[t] + seen[t] > state.copies[t]:
                    raise Violation("L301", f"all {state.copies[t]} {t} are already accounted for: horse {k + 1} cannot be {t}",
                                    self.seed_rule, arg=arg)

    def apply_extra(self, state: MahjongState, move: Move) -> bool:
        if move.verb != "horses":
            return False
        self._check_horses(state, list(move.tiles))
        tiles = [e if e != UNSEEN else t for t, e in zip(move.tiles, self._expected_horses(state))]
        for t, e in zip(tiles, self._expected_horses(state)):
            if e == UNSEEN and t != UNSEEN:
                self._locate(state, t)
        state.horses = tiles
        state.phase = "done"
        state.over = True
        return True

    def horses_actions(self, state: MahjongState) -> list[Move]:
        return [Move(None, "horses", None, None, tuple(self._expected_horses(state)))]

    def end_reason(self, state: MahjongState) -> str | None:
        if not state.wins:
            return "the wall is empty and nobody won on the last discard (an exhaustive draw, 流局)"
        win = state.wins[0]
        if win.how == "tsumo":
            if state.horses is not None:
                return f"{win.seat} won by self-draw (自模) and the horses (奨馬) are drawn"
            why = "the wall is empty" if state.wall.live == 0 else f"horses={state.match.rules['horses']}"
            return f"{win.seat} won by self-draw (自模); no horses (奨馬) are drawn: {why}"
        winners = " and ".join(w.seat for w in state.wins)
        what = "discard (食糊)" if win.how == "ron" else "added kong (搶槓糊)"
        return f"{winners} won on {win.payer}'s {what}; horses (奨馬) follow a self-drawn win only"

    def rule_tables(self) -> list[tuple[str, tuple[str, ...], list[tuple[str, ...]]]]:
        """●奨馬: the horse tiles of each seat wind, for ``paifu rules paomazai``."""
        rows = [(f"{'東南西北'[w]} ({'ESWN'[w]})", " ".join(sorted(HORSE_HONOURS[w])),
                 " ".join(str(r) for r in sorted(HORSE_RANKS[w]))) for w in range(4)]
        return [(f"{self.title} — horses (●奨馬), 100 from each other player per tile", ("seat wind", "honours", "ranks (any suit)"), rows)]

    # -- settlement --------------------------------------------------------------------
    def settle_hand(self, state: MahjongState) -> Settlement:
        deltas = {s: 0 for s in state.seats}
        out = Settlement(deltas)
        out.items.extend(state.kong_items)
        payments = list(state.kong_payments)
        for win in state.wins:
            wind = wind_of(state.seats, state.dealer, win.seat)
            items, paid, unknown = win_settlement(win, wind, state.horses or [], state.others(win.seat))
            out.items.extend(items)
            payments.extend(paid)
            if unknown:
                out.unknown.update(state.seats)
            state.log.extend(i.term for i in items)
        if not state.wins:
            out.items.append(ScoreItem(state.dealer, "exhaustive draw", 0, "流局", "no win: kong payments stand"))
        for p in payments:
            deltas[p.payer] -= p.amount
            deltas[p.payee] += p.amount
        out.payments = payments
        return out

    def end_hand(self, match: Match, state: MahjongState, settlement: Settlement) -> None:
        super().end_hand(match, state, settlement)
        winners = {w.seat for w in state.wins}
        if state.dealer in winners or (not winners and match.rules["draw_dealer"] == "stay"):
            match.dealer = state.dealer  # 連荘: the dealer stays on his win (and a drawn hand, draw_dealer=stay)
        else:
            match.dealer = state.next_seat(state.dealer)


ENGINE = Paomazai()
