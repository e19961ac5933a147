"""The half-game (半荘) of 「三人麻雀」のルール ver. 1.3: its end, busting and the final settlement.

- §基本ルール 6–8: 東南戦; the dealer passes three times in the East round and three times in
  the South round, then the half-game is over (there is no あがりやめ: the last dealer plays on
  while he stays dealer).
- §基本ルール 15: a seat is bust (飛び) at the first moment its score goes below zero while a hand
  is settled; the settlement is finished all the same and the half-game ends, whatever the
  result.
- §基本ルール 16: the 飛び賞 (10 points a level) goes to whoever made the payment cross zero;
  one more level at each 30,000 below zero (「三万エブリでの段階飛び」); busting both others in
  one hand earns the ダブル飛び prize as well.
- §基本ルール 9, 10, 32: the final points: (score − 40,000) / 1,000 for each seat, the 丘 (30)
  to first, 順位馬 10 from third to first, then the prizes (飛び賞, ダブル飛び, 役満祝儀).
- §基本ルール 17: each multi-party exchange is made with one's right-hand neighbour first; the
  settlement's payments are walked in that order to find who crossed zero.

Defaults where the rule text is silent: RULINGS §sanma and docs/rulings.md §sanma.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...engine import POT, Match, Payment, RuleOption, Rules, ScoreItem, Settlement

TITLE = "「三人麻雀」のルール ver. 1.3"
START = 30000  # 配給原点は三万点 (rule 9)
OKA = 40000  # 清算基準点(「丘」)は四万点 (rule 9)
UMA = 10  # 順位馬は、三位から一位への一万点分 (rule 10)
BUST_PRIZE = 10  # 飛び賞は一万点分 (rule 16)
BUST_STEP = 30000  # 零下三万点ごとに多重に飛び (rule 16.3)
DOUBLE_BUST_PRIZE = 10  # 全員飛ばし祝儀として、さらに一万点分 (rule 16.2)
HALF_GAME_PASSES = 2  # rounds: 東南戦 (rule 6), the deal passing once round the table in each


OPTIONS = (
    RuleOption("bust_levels", "crossing", ("crossing", "first"),
               "who receives the 飛び賞 of each level below zero: crossing: whoever received the payment that "
               "took the score below that level (0, -30000, ...); first: whoever took it below zero receives every level",
               f"{TITLE} §基本ルール 16.1, 16.3 / docs/rulings.md §sanma"),
    RuleOption("double_bust", "each", ("each", "once"),
               "the ダブル飛び prize (16.2, 「さらに一万点分を受け取る」): each: 10 from each seat busted; "
               "once: 10 in all, 5 from each", f"{TITLE} §基本ルール 16.2 / docs/rulings.md §sanma"),
)


@dataclass
class Bust:
    """One level of a seat's bust: who went below ``threshold`` (0, −30,000, …) and who
    received the payment that took him there (None: it went to the pot)."""

    seat: str
    threshold: int
    receiver: str | None


def rule(n: str) -> str:
    return f"{TITLE} §基本ルール {n}"


def passes_for_end(seats: list[str]) -> int:
    """How many times the deal passes on in a half-game: three in East, three in South."""
    return HALF_GAME_PASSES * len(seats)


def busts_in(before: dict[str, int], payments: list[Payment]) -> list[Bust]:
    """Every bust level reached while ``payments`` are made in their order (rule 15.1: 「持ち
    点が計算上一度でもマイナスになった瞬間」), from the scores ``before`` the hand's settlement.
    A level is each of 0, −30,000, −60,000… that a score goes strictly below (RULINGS §sanma:
    −30,000 is one level, −30,100 two); once reached it stays reached.

    >>> busts_in({"A": 1000, "B": 0, "C": 0}, [Payment("A", "B", 2000)])
    [Bust(seat='A', threshold=0, receiver='B')]
    >>> [b.threshold for b in busts_in({"A": 5000}, [Payment("A", "B", 36000)])]
    [0, -30000]
    >>> busts_in({"A": 1000}, [Payment("A", "B", 1000)])
    []
    """
    score = dict(before)
    lowest = dict(before)
    out: list[Bust] = []
    for p in payments:
        if p.payer == POT or p.payer not in score:
            if p.payee in score:
                score[p.payee] += p.amount
            continue
        score[p.payer] -= p.amount
        if p.reason == "立直棒":
            continue  # a riichi stick was paid at the declaration, from a score of 1000 or more
        if p.payee in score:
            score[p.payee] += p.amount
        now = score[p.payer]
        threshold = 0
        while now < threshold:
            if lowest[p.payer] >= threshold:
                out.append(Bust(p.payer, threshold, p.payee if p.payee in score else None))
            threshold -= BUST_STEP
        lowest[p.payer] = min(lowest[p.payer], now)
    return out


def rank(match: Match) -> list[str]:
    """Seats from first to third by score; equal scores by seat order from the first dealer
    (起家, RULINGS §sanma)."""
    seats = match.seats
    first = getattr(match, "first_dealer", None) or seats[0]
    start = seats.index(first)
    order = {s: (seats.index(s) - start) % len(seats) for s in seats}
    return sorted(seats, key=lambda s: (-match.totals[s], order[s]))


def final_settlement(match: Match) -> Settlement:
    """The final points of a half-game (rules 9, 10, 16, 32): (score − 丘) / 1000 for each seat,
    the 丘 (40,000 − 30,000 from each) to first, 順位馬 10 from third to first, a pot left on the
    table to first (RULINGS §sanma), 飛び賞 per level to whoever caused it, ダブル飛び, 役満祝儀.
    Exchanges are listed each with one's right-hand neighbour first (rule 17)."""
    seats = match.seats
    order = rank(match)
    first, third = order[0], order[-1]
    totals = dict(match.totals)
    pot = getattr(match, "pot", 0)
    out = Settlement({s: 0 for s in seats})
    if pot:
        totals[first] += pot
        out.items.append(ScoreItem(first, "pot", pot, "供託", f"{pot} points left in the pot go to first (docs/rulings.md §sanma half-game)"))
    for place, s in enumerate(order, 1):
        points = (totals[s] - OKA) // 1000
        out.deltas[s] += points
        out.items.append(ScoreItem(s, f"place {place}", points, "算定ポイント",
                                   f"({totals[s]} − {OKA}) / 1000 = {points:+d} (rule 9)"))
    balance = sum((totals[s] - OKA) % 1000 for s in seats) // 1000
    if balance:  # half thousands (tsumo_bonus=total): each seat's point is cut down, first takes the balance
        out.deltas[first] += balance
        out.items.append(ScoreItem(first, "balance", balance, "端数",
                                   f"the hundreds cut from each seat's points go to first: {balance:+d} (docs/rulings.md §sanma half-game)"))
    oka = (OKA - START) * len(seats) // 1000
    out.deltas[first] += oka
    out.items.append(ScoreItem(first, "oka", oka, "丘", f"{OKA - START} from each of {len(seats)} seats to first: {oka:+d} (rule 9)"))
    out.deltas[first] += UMA
    out.deltas[third] -= UMA
    out.items.append(ScoreItem(first, "uma", UMA, "順位馬", f"{UMA} from third ({third}) to first (rule 10)"))
    out.items.append(ScoreItem(third, "uma", -UMA, "順位馬", f"{UMA} from third to first ({first}) (rule 10)"))
    out.payments.append(Payment(third, first, UMA, "順位馬"))
    prizes: list[tuple[str, str, int, str]] = []
    busts: list[Bust] = list(getattr(match, "busts", None) or [])
    first_level = {b.seat: b.receiver for b in busts if b.threshold == 0}
    for b in busts:
        receiver = first_level.get(b.seat) if match.rules.get("bust_levels") == "first" else b.receiver
        if receiver is not None:
            prizes.append((receiver, b.seat, BUST_PRIZE, "飛び賞" + (f" (below {b.threshold})" if b.threshold else "")))
    double = double_busts(match)
    for receiver, payer in double:
        each = DOUBLE_BUST_PRIZE if match.rules.get("double_bust", "each") == "each" else DOUBLE_BUST_PRIZE // len(double)
        prizes.append((receiver, payer, each, "ダブル飛び"))
    prizes.extend(getattr(match, "prizes", None) or [])
    for payee, payer, points, why in _rule17_order(prizes, seats):
        if payer not in out.deltas or payee not in out.deltas:
            continue
        out.deltas[payee] += points
        out.deltas[payer] -= points
        out.payments.append(Payment(payer, payee, points, why))
        out.items.append(ScoreItem(payee, "prize", points, why, f"{points} from {payer}"))
    return out


def double_busts(match: Match) -> list[tuple[str, str]]:
    """ダブル飛び (rule 16.2): a seat that busted every other seat in one hand receives the prize
    from each of them (docs/rulings.md §sanma). ``match.bust_hands`` groups the levels by hand."""
    out = []
    for group in getattr(match, "bust_hands", None) or []:
        receivers = {b.receiver for b in group if b.threshold == 0}
        busted = {b.seat for b in group if b.threshold == 0}
        if len(receivers) == 1 and None not in receivers:
            receiver = next(iter(receivers))
            others = [s for s in match.seats if s != receiver]
            if receiver is not None and busted == set(others):
                out.extend((receiver, s) for s in others)
    return out


def _rule17_order(prizes: list[tuple[str, str, int, str]], seats: list[str]) -> list[tuple[str, str, int, str]]:
    """Each receiver settles with the seat on his right first, then the next (rule 17)."""
    def key(p: tuple[str, str, int, str]) -> tuple[int, int]:
        payee, payer = p[0], p[1]
        i = seats.index(payee) if payee in seats else 0
        j = seats.index(payer) if payer in seats else 0
        return i, (j - i) % len(seats)
    return sorted(prizes, key=key)


def seed_game(match: Match) -> bool:
    """The rule text's half-game; a Tenhou log (``rules=tenhou``) keeps its own ending, its
    own deltas being the truth (RULINGS §sanma): no bust, no end, no final settlement here."""
    from .tenhou import is_tenhou

    return not is_tenhou(match.rules)


def record_busts(match: Match, settlement: Settlement, rules: Rules | None = None) -> list[Bust]:
    """After a hand's deltas are added to ``match.totals``: the busts of that settlement
    (rule 15), kept on the match for the final settlement; a bust ends the half-game."""
    if not seed_game(match):
        return []
    before = {s: match.totals[s] - settlement.deltas.get(s, 0) for s in match.seats}
    found = busts_in(before, settlement.payments)
    if found:
        match.busts = list(getattr(match, "busts", None) or []) + found  # type: ignore[attr-defined]
        match.bust_hands = list(getattr(match, "bust_hands", None) or []) + [found]  # type: ignore[attr-defined]
        match.over = True
    return found


def half_game_over(match: Match) -> bool:
    """Over at a bust (rule 15) or once the deal has passed on from the South round's last
    dealer (rules 6–8: 東南戦, no あがりやめ)."""
    if not seed_game(match):
        return match.over
    return match.over or getattr(match, "passes", 0) >= passes_for_end(match.seats)


def begin(match: Match, header, dealer: str) -> None:
    """The first hand of a record: its dealer is the first dealer (起家) unless the hand line
    says which hand of its round it is (``kyoku=2``: the round's second dealer), for a record
    that starts mid-game; the deal's passes so far follow from the round and ``kyoku``."""
    seats = match.seats
    kyoku = header.attrs.get("kyoku", "1")
    if not kyoku.isdigit() or not 1 <= int(kyoku) <= len(seats):
        from ...engine import Violation
        raise Violation("L306", f"kyoku={kyoku}: the hand of the round is 1 to {len(seats)}", rule("6"))
    k = int(kyoku) - 1
    match.first_dealer = seats[(seats.index(dealer) - k) % len(seats)]  # type: ignore[attr-defined]
    match.passes = getattr(match, "round_wind", 0) * len(seats) + k  # type: ignore[attr-defined]
