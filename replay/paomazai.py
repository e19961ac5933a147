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
from dataclasses import dataclass

from notation.model import CardsArg, Event, Hand

from . import tiles as T
from .engine import Match, Payment, RuleOption, ScoreItem, Settlement, Violation
from .mahjong import (KONG_AIMS, UNSEEN, MahjongEngine, MahjongState, Meld, MissedWinRule, Move, Win, kong_plan, rob_plan,
                      table_aim_choose, wind_of)

SEED = "「香港雀荘と澳門カジノの麻雀・跑馬仔」 (2015-08-25)"  # seed 004_4a517c4c696f89f5.txt
RULING = "docs/rulings.md §paomazai"

OPTIONS = (
    RuleOption("multi_ron", "all", ("all", "head_bump"),
               "several players may win on one discard, each paid by the discarder (all), or only the first in turn order from the discarder (head_bump)", RULING),
    RuleOption("horses", "5", ("none",), "horses (奨馬) drawn after a self-draw (fewer when the wall has fewer)",
               f"{SEED} ■奨馬の規則 (奨馬で引く枚数は、事前に話し合って決める)", integer=True),
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


ITEMS = {
    "kong_concealed": Item("kong_concealed", "暗槓", "concealed kong", 200, "each other player"),
    "kong_direct": Item("kong_direct", "明槓", "direct kong", 300, "the discarder"),
    "kong_added": Item("kong_added", "加槓", "added kong", 100, "each other player"),
    "ron": Item("ron", "食糊", "win on a discard", 300, "the discarder (dealer too)"),
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


AIM_ROB = ("robbing a kong", "搶槓糊")


class Paomazai(MahjongEngine):
    id = "paomazai"
    title = "跑馬仔 Paomazai"
    seat_counts = (4,)
    options = OPTIONS
    source = SEED
    seed_rule = SEED
    dealer_rule = f"{SEED} ◆概要 (荘で勝てば連荘)"
    no_chi_rule = f"{SEED} ◆概要 (チーは出来ないが、ポンとカンが出来る)"
    selfplay_hands = 2

    def tile_set(self, rules) -> list[str]:
        return T.tile_set("136")

    def expected_dealer(self, match: Match) -> str | None:
        return match.dealer

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
            state.over = False
            state.phase = "horses"

    def horses_due(self, state: MahjongState) -> int:
        return min(state.match.rules.int("horses") or 0, state.wall.live)

    def read_extra(self, state: MahjongState, event: Event) -> Move | None:
        if event.verb != "horses":
            return None
        if state.phase != "horses":
            raise Violation("L301", "horses (奨馬) are drawn only after a self-drawn win", f"{SEED} ■奨馬の規則")
        codes: list[str] = []
        for i, arg in enumerate(event.args):
            if not isinstance(arg, CardsArg):
                raise Violation("L305", "horses are tiles: 'horses 159m2z5p'", arg=i)
            codes.extend(arg.cards)
        return Move(None, "horses", None, None, tuple(codes))

    def apply_extra(self, state: MahjongState, move: Move) -> bool:
        if move.verb != "horses":
            return False
        due = self.horses_due(state)
        if len(move.tiles) != due:
            raise Violation("L301", f"{due} horses are drawn here, not {len(move.tiles)} (the rule: "
                            f"「自模上がった牌の次の牌から5枚引く」; horses={state.match.rules['horses']}, "
                            f"{state.wall.live} tiles left in the wall)", f"{SEED} ■奨馬の規則")
        expected = state.wall.peek("head", due)
        tiles = list(move.tiles)
        for k, (t, e) in enumerate(zip(tiles, expected)):
            if e != UNSEEN:
                if t != UNSEEN and t != e:
                    raise Violation("L301", f"the wall's next tiles are {' '.join(expected)}: horse {k + 1} is {e}, not {t}", RULING)
                tiles[k] = e
            elif t != UNSEEN:
                self._locate(state, t)
        state.horses = tiles
        state.phase = "done"
        state.over = True
        return True

    def horses_actions(self, state: MahjongState) -> list[Move]:
        return [Move(None, "horses", None, None, tuple(state.wall.peek("head", self.horses_due(state))))]

    # -- settlement --------------------------------------------------------------------
    def settle_hand(self, state: MahjongState) -> Settlement:
        deltas = {s: 0 for s in state.seats}
        out = Settlement(deltas)
        out.items.extend(state.kong_items)
        payments = list(state.kong_payments)
        for win in state.wins:
            if win.how == "tsumo":
                item = ITEMS["tsumo"]
                for p in state.others(win.seat):
                    payments.append(Payment(p, win.seat, item.amount, item.term))
                out.items.append(ScoreItem(win.seat, item.name, item.amount * 3, item.term, f"{win.tile}: 200 from each"))
                state.log.append(item.term)
                if state.horses:
                    wind = wind_of(state.seats, state.dealer, win.seat)
                    if UNSEEN in state.horses:
                        out.unknown.update(state.seats)
                    good = [t for t in state.horses if t != UNSEEN and horse_matches(wind, t)]
                    if good:
                        amount = ITEMS["horse"].amount * len(good)
                        for p in state.others(win.seat):
                            payments.append(Payment(p, win.seat, amount, f"奨馬 ×{len(good)}"))
                        out.items.append(ScoreItem(win.seat, "horses", amount * 3, "奨馬",
                                                   f"{T.sort_codes(good)} match {'東南西北'[wind]}: {len(good)} × 100 from each"))
                        state.log.append("奨馬")
            else:
                item = ITEMS[win.how]
                assert win.payer is not None
                payments.append(Payment(win.payer, win.seat, item.amount, item.term))
                out.items.append(ScoreItem(win.seat, item.name, item.amount, item.term, f"{win.tile} from {win.payer}"))
                state.log.append(item.term)
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
        if not winners or state.dealer in winners:
            match.dealer = state.dealer  # 連荘: the dealer stays on his win or a drawn hand
        else:
            match.dealer = state.next_seat(state.dealer)


ENGINE = Paomazai()
