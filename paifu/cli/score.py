"""``paifu score GAME TILES ...``: what one mahjong hand is worth, without a record.

It parses the arguments (tiles through the notation's spelling), asks the game's scorer
(the validator's own code: :mod:`paifu.replay.mahjong.sanma.scorer`, and ``score_one`` in
the kawuxing, paomazai, yichang and wuhan modules) and prints.
"""

from __future__ import annotations

import argparse
import json
import sys

WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}
RIICHI_FLAGS = {"riichi": "riichi", "double_riichi": "double", "open_riichi": "open", "double_open_riichi": "double_open"}
SCORED_GAMES = ("sanma", "kawuxing", "paomazai", "yichang", "wuhan")
NOT_YET: tuple[str, ...] = ()
SANMA_ONLY = ("dora", "ura", "nuki", "honba", "ippatsu", "first_turn", "after_replacement_discard", *RIICHI_FLAGS)
KAWUXING_ONLY = ("turn_kongs", "after_kong", "disclosed")
PAOMAZAI_ONLY = ("horses",)
YICHANG_ONLY = ("payer_kongs",)
WUHAN_ONLY = ("indicator", "dealer", "seat_has", "chi")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="what one mahjong hand is worth, without writing a record (sanma, kawuxing, paomazai, yichang, wuhan)",
                       description="Score one winning hand with the validator's own scoring: its items in the game's "
                       "terms (yaku and han, fu, dora and the limit; doubles; 番; 飜 and caps; horses) and who pays what. "
                       "A is the winner, B the discarder. Exit 0 for a hand that may win, 1 for one that is not complete "
                       "or may not win so, 2 for a usage error.")
    p.add_argument("game", help="the game: sanma, kawuxing, paomazai, yichang or wuhan")
    p.add_argument("tiles", nargs="+", metavar="TILES",
                   help="the concealed tiles, the winning tile included, in the notation's spelling (234p567p345s78s99s6s)")
    p.add_argument("--win", metavar="TILE", help="the winning tile (default: the last tile written)")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--tsumo", action="store_true", help="won on a self-draw (default: ron)")
    how.add_argument("--rob", choices=("added", "closed", "north"), help="won robbing an added kong, a closed kong or an extracted North")
    for flag, kind in (("--pon", "pon"), ("--kong", "kong_direct"), ("--closed-kong", "kong_concealed"), ("--added-kong", "kong_added")):
        p.add_argument(flag, action="append", default=[], metavar="TILES", dest=kind, help=f"a declared {kind.replace('_', ' ')} (repeatable): 555z, 1111s")
    p.add_argument("--seat", choices=("E", "S", "W", "N"), default="S", help="the winner's seat wind; E is the dealer (default S)")
    p.add_argument("--round", choices=("E", "S"), default="E", help="the round wind (default E)")
    p.add_argument("--dora", nargs="+", default=[], metavar="TILE", help="the dora indicators (the tiles turned, not the dora)")
    p.add_argument("--ura", nargs="+", default=[], metavar="TILE", help="the ura indicators (counted for a riichi winner)")
    p.add_argument("--nuki", type=int, default=0, metavar="N", help="Norths the winner set aside (抜きドラ)")
    p.add_argument("--honba", type=int, default=0, metavar="N", help="積み棒 on the table")
    riichi = p.add_mutually_exclusive_group()
    for flag in RIICHI_FLAGS:
        riichi.add_argument("--" + flag.replace("_", "-"), action="store_true", dest=flag)
    p.add_argument("--ippatsu", action="store_true", help="一発")
    p.add_argument("--first-turn", action="store_true", help="the winner's first turn, uninterrupted (天和, 地和, 人和)")
    p.add_argument("--last-tile", action="store_true", help="the last live tile or its discard (海底撈月, 河底撈魚)")
    p.add_argument("--replacement", action="store_true", help="a tsumo on the replacement tile after a kong or a North (嶺上開花)")
    p.add_argument("--after-replacement-discard", action="store_true", help="a ron on the discard after a replacement draw (槓振り)")
    p.add_argument("--turn-kongs", type=int, default=0, metavar="N", help="kawuxing: kongs made this turn before a 杠上开花 win")
    p.add_argument("--after-kong", action="store_true", help="kawuxing: a ron on the discard right after the discarder's kong (杠上炮)")
    p.add_argument("--disclosed", action="store_true", help="kawuxing: the winner had disclosed his hand (亮倒)")
    p.add_argument("--horses", nargs="+", default=[], metavar="TILE", help="paomazai: the horse tiles (奨馬) drawn after a self-draw")
    p.add_argument("--payer-kongs", action="append", default=[], metavar="SEAT:OPEN:CLOSED",
                   help="yichang: a payer's own kongs, added to what he pays (槓出), e.g. B:1:0 (repeatable)")
    p.add_argument("--chi", action="append", default=[], metavar="TILES", help="wuhan: a declared chi (repeatable): 234p")
    p.add_argument("--indicator", metavar="TILE", help="wuhan: the face-up tile that names the 頼子 (required)")
    p.add_argument("--dealer", choices=("A", "B", "C", "D"), help="wuhan: the dealer's seat, A the winner, B the discarder (required)")
    p.add_argument("--seat-has", action="append", default=[], metavar="SEAT:ITEMS",
                   help="wuhan: what counts on both sides for a seat, comma-separated and repeatable: open (開口), "
                        "minggang, angang, red (紅中槓), laizi (頼子槓); e.g. D:open,red,laizi")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a rules option, as in a record (repeatable)")
    p.add_argument("--json", action="store_true", help="print the answer as one JSON object")
    p.set_defaults(func=cmd_score)


def _read_tiles(spelling, text: str) -> list[str] | None:  # noqa: ANN001 - a notation Spelling
    codes = spelling.read(text)
    return None if not codes else codes


def cmd_score(args: argparse.Namespace) -> int:
    from paifu.notation import spelling_for_game
    from paifu.replay.mahjong.sanma import scorer

    def usage(message: str) -> int:
        print(f"paifu score: {message}", file=sys.stderr)
        return 2

    if args.game in NOT_YET:
        return usage(f"{args.game} is not scored here yet: only {', '.join(SCORED_GAMES)} (validate a record of the hand instead)")
    if args.game not in SCORED_GAMES:
        return usage(f"'{args.game}' is not a mahjong game paifu scores ({', '.join(SCORED_GAMES)})")
    spelling = spelling_for_game(args.game)
    concealed: list[str] = []
    for token in args.tiles:
        codes = _read_tiles(spelling, token)
        if codes is None:
            return usage(f"'{token}' is not a tile token (tiles are written 123m 456p 789s 1234567z, 0p/0s a red five)")
        concealed += codes
    singles: dict[str, str | None] = {"--win": args.win}
    one: dict[str, str] = {}
    for flag, token in singles.items():
        if token is None:
            continue
        codes = _read_tiles(spelling, token)
        if codes is None or len(codes) != 1:
            return usage(f"{flag} takes one tile, not '{token}'")
        one[flag] = codes[0]
    melds = []
    meld_reds = 0
    for kind in scorer.MELD_KINDS:
        for token in getattr(args, kind):
            codes = _read_tiles(spelling, token)
            size = 3 if kind == "pon" else 4
            if codes is None or len(codes) != size or len({c.replace("0", "5") for c in codes}) != 1:
                return usage(f"a {kind.replace('_', ' ')} is {size} of one tile ({'555z' if size == 3 else '1111s'}), not '{token}'")
            melds.append(scorer.meld(kind, [c.replace("0", "5") for c in codes]))
            meld_reds += sum(c.startswith("0") for c in codes)
    indicators = {}
    for name in ("dora", "ura"):
        got: list[str] = []
        for token in getattr(args, name):
            codes = _read_tiles(spelling, token)
            if codes is None:
                return usage(f"--{name}: '{token}' is not a tile token")
            got += codes
        indicators[name] = tuple(got)
    options: dict[str, str] = {}
    args.options_used = bool(args.option)
    for item in args.option:
        key, sep, value = item.partition("=")
        if not sep:
            return usage(f"--option takes KEY=VALUE, not '{item}'")
        options[key.strip()] = value.strip()
    from paifu.replay.games import engine

    known = {o.name: o for o in engine(args.game).options}  # type: ignore[union-attr]
    for key, value in options.items():
        if key not in known:
            return usage(f"{args.game} has no option '{key}' (see 'paifu rules {args.game}')")
        problem = known[key].check(value)
        if problem:
            return usage(problem)
    tile = one.get("--win", concealed[-1] if concealed else "")
    if args.game != "paomazai" and args.horses:
        return usage("--horses are paomazai's")
    if args.game != "yichang" and args.payer_kongs:
        return usage("--payer-kongs are yichang's")
    if args.game != "wuhan" and any(getattr(args, name) for name in WUHAN_ONLY):
        return usage("--chi, --indicator, --dealer and --seat-has are wuhan's")
    if args.game == "yichang":
        return _yichang(args, concealed, melds, tile, options, usage)
    if args.game == "wuhan":
        return _wuhan(args, spelling, concealed, melds, tile, options, usage)
    if args.game == "kawuxing":
        return _kawuxing(args, concealed, melds, tile, options, usage)
    if any(getattr(args, name) for name in KAWUXING_ONLY):
        return usage("--turn-kongs, --after-kong and --disclosed are kawuxing's")
    if args.game == "paomazai":
        return _paomazai(args, spelling, concealed, melds, tile, usage)
    if args.seat == "N":
        return usage("sanma has three seats: E, S and W")
    if args.nuki < 0 or args.honba < 0:
        return usage("--nuki and --honba count from 0")
    riichi = next((kind for flag, kind in RIICHI_FLAGS.items() if getattr(args, flag)), "none")
    how = "tsumo" if args.tsumo else (f"rob_{args.rob}" if args.rob else "ron")
    asked = scorer.Asked(
        concealed=tuple(concealed), melds=tuple(melds), win_tile=one.get("--win", ""), how=how,
        seat_wind=WINDS[args.seat], round_wind=WINDS[args.round], riichi=riichi, ippatsu=args.ippatsu,
        first_turn=args.first_turn, last_tile=args.last_tile, replacement=args.replacement,
        after_replacement_discard=args.after_replacement_discard, honba=args.honba, nuki=args.nuki,
        dora_indicators=indicators["dora"], ura_indicators=indicators["ura"], meld_reds=meld_reds)
    wrong = scorer.problems(asked)
    if wrong:
        return usage("; ".join(wrong))
    scored = scorer.score_hand(asked, options)
    short = scorer.shortfall(asked, options) if scored is not None else None
    if args.json:
        print(json.dumps(_as_json(scored, short, scorer.needed(asked, options)), ensure_ascii=False, indent=2))
    else:
        _print(scored, short, scorer.needed(asked, options))
    return 0 if scored is not None and short is None else 1


def _as_json(scored, short, need: int) -> dict:  # noqa: ANN001
    if scored is None:
        return {"complete": False}
    items = lambda rows: [{"term": i.term, "name": i.name, "value": i.value} for i in rows]  # noqa: E731
    return {
        "complete": True, "may_win": short is None, "han_needed": need,
        "short": None if short is None else {"tile": short[0], "han": short[1]},
        "yaku": items(scored.yaku), "dora": items(scored.dora), "fu_items": items(scored.fu_items),
        "han": scored.han, "fu": scored.fu, "limit": scored.limit, "base": scored.base, "reading": scored.reading,
        "payments": [{"role": p.role, "hand": p.hand, "honba": p.honba, "count": p.count, "each": p.total} for p in scored.payments],
        "total": scored.total,
    }


ROLES = {"discarder": "the discarder pays", "dealer": "the dealer pays", "non_dealer": "the non-dealer pays"}


def _print(scored, short, need: int) -> None:  # noqa: ANN001
    if scored is None:
        print("not a complete hand: no reading of these tiles makes four sets and a pair, seven pairs or thirteen orphans")
        return
    print(f"reading: {scored.reading}")
    for title, rows, unit in (("yaku", scored.yaku, "han"), ("dora", scored.dora, "han"), ("fu", scored.fu_items, "fu")):
        for i in rows:
            print(f"  {title:4}  {i.term} {i.name}: {i.value} {unit}")
    limit = f": {scored.limit}" if scored.limit else ""
    print(f"{scored.han} han {scored.fu} fu{limit}, base {scored.base}")
    for p in scored.payments:
        who = ROLES.get(p.role, p.role)
        if p.role == "non_dealer" and p.count > 1:
            who = f"each of the {p.count} non-dealers pays"
        honba = f" + {p.honba} 積み棒" if p.honba else ""
        print(f"  {who} {p.hand}{honba}")
    print(f"the winner receives {scored.total} (riichi sticks on the table aside)")
    if short is not None:
        tile, han = short
        print(f"but it may not win: a win on {tile} holds {han} han from yaku, and the rules ask for {need} "
              "(rule 18, 役による二翻縛り: 3 with 5 or more honba)")


def _kawuxing(args: argparse.Namespace, concealed: list[str], melds: list, tile: str, options: dict[str, str], usage) -> int:  # noqa: ANN001
    from paifu.replay.mahjong import kawuxing

    if any(getattr(args, name) for name in SANMA_ONLY) or args.seat != "S" or args.round != "E":
        return usage("dora, ura, nuki, honba, riichi, ippatsu, first turn, winds and 槓振り are sanma's: kawuxing has none")
    if args.rob not in (None, "added"):
        return usage("kawuxing robs only a growing kong (--rob added)")
    if args.turn_kongs < 0:
        return usage("--turn-kongs counts from 0")
    how = "tsumo" if args.tsumo else ("rob" if args.rob else "ron")
    one = kawuxing.score_one(concealed, melds, tile, how, options, replacement=args.replacement,
                             turn_kongs=args.turn_kongs or (1 if args.replacement else 0), after_kong=args.after_kong,
                             last_tile=args.last_tile, disclosed=args.disclosed)
    if one.problems:
        return usage("; ".join(one.problems))
    score = one.score
    if args.json:
        print(json.dumps({"complete": False} if score is None else {
            "complete": True, "may_win": one.refusal is None, "refusal": one.refusal, "reading": score.reading,
            "patterns": [{"term": kawuxing.PATTERNS[k].term, "name": kawuxing.PATTERNS[k].name, "doubles": n} for k, n in score.patterns],
            "doubles": score.raw, "capped": score.capped, "multiplier": score.multiplier,
            "payments": [{"payer": p.payer, "payee": p.payee, "amount": p.amount, "reason": p.reason} for p in one.payments],
            "total": sum(p.amount for p in one.payments)}, ensure_ascii=False, indent=2))
    elif score is None:
        print("not a complete hand: no reading of these tiles makes four sets and a pair or seven pairs")
    else:
        print(f"reading: {score.reading}")
        for k, n in score.patterns:
            print(f"  {kawuxing.PATTERNS[k].term} {kawuxing.PATTERNS[k].name}: {n} double(s)")
        if not score.patterns:
            print("  平胡 plain win: no doubling pattern")
        capped = f", capped at {score.capped}" if score.raw > score.capped else ""
        print(f"{score.raw} double(s){capped}: ×{score.multiplier} the unit")
        print("  (A the winner" + ("" if how == "tsumo" else ", B the discarder" if how == "ron" else ", B the robbed konger") + ")")
        for p in one.payments:
            print(f"  {p.payer} pays {p.payee} {p.amount} ({p.reason})")
        print(f"the winner receives {sum(p.amount for p in one.payments)} units (kong payments aside)")
        if one.refusal:
            print(f"but it may not win: {one.refusal}")
    return 0 if score is not None and one.refusal is None else 1


def _paomazai(args: argparse.Namespace, spelling, concealed: list[str], melds: list, tile: str, usage) -> int:  # noqa: ANN001
    from paifu.replay.mahjong import paomazai

    if any(getattr(args, name) for name in SANMA_ONLY) or args.round != "E" or args.options_used:
        return usage("paomazai has no dora, riichi, honba, round wind or scoring options: a win is paid the same whatever the hand")
    if args.replacement or args.last_tile or any(getattr(args, name) for name in KAWUXING_ONLY):
        return usage("paomazai pays no bonus for a replacement tile, the last tile, a kong discard or a disclosure")
    if args.rob not in (None, "added"):
        return usage("paomazai robs only an added kong (--rob added)")
    horses: list[str] = []
    for token in args.horses:
        codes = _read_tiles(spelling, token)
        if codes is None:
            return usage(f"--horses: '{token}' is not a tile token")
        horses += codes
    how = "tsumo" if args.tsumo else ("rob" if args.rob else "ron")
    one = paomazai.score_one(concealed, melds, tile, how, WINDS[args.seat], horses)
    if one.problems:
        return usage("; ".join(one.problems))
    total = sum(p.amount for p in one.payments)
    if args.json:
        print(json.dumps({"complete": one.complete,
                          "items": [{"term": i.term, "name": i.name, "amount": i.value, "detail": i.detail} for i in one.items],
                          "payments": [{"payer": p.payer, "payee": p.payee, "amount": p.amount, "reason": p.reason} for p in one.payments],
                          "total": total}, ensure_ascii=False, indent=2))
    elif not one.complete:
        print("not a complete hand: no reading of these tiles makes four sets and a pair (paomazai has no seven pairs)")
    else:
        for i in one.items:
            print(f"  {i.term} {i.name}: {i.value} ({i.detail})")
        print("  (A the winner" + ("" if how == "tsumo" else ", B the discarder" if how == "ron" else ", B the robbed konger") + ")")
        for p in one.payments:
            print(f"  {p.payer} pays {p.payee} {p.amount} ({p.reason})")
        print(f"the winner receives {total} (kong payments aside)")
    return 0 if one.complete else 1


def _yichang(args: argparse.Namespace, concealed: list[str], melds: list, tile: str, options: dict[str, str], usage) -> int:  # noqa: ANN001
    from paifu.replay.mahjong import yichang

    if any(getattr(args, name) for name in SANMA_ONLY) or args.seat != "S" or args.round != "E":
        return usage("yichang has no dora, riichi, honba or winds: the hand's pattern, 門前自摸 and the kongs make its value")
    if args.replacement or args.last_tile or any(getattr(args, name) for name in KAWUXING_ONLY):
        return usage("yichang pays no bonus for a replacement tile, the last tile, a kong discard or a disclosure")
    if args.rob not in (None, "added"):
        return usage("yichang robs only an added kong (--rob added)")
    kongs: dict[str, tuple[int, int]] = {}
    for given in args.payer_kongs:
        parts = given.split(":")
        if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit() or parts[0] not in ("B", "C", "D"):
            return usage(f"--payer-kongs takes SEAT:OPEN:CLOSED (B:1:0: B has one open kong), not '{given}'")
        kongs[parts[0]] = (int(parts[1]), int(parts[2]))
    how = "tsumo" if args.tsumo else ("rob" if args.rob else "ron")
    one = yichang.score_one(concealed, melds, tile, how, options, kongs)
    if one.problems:
        return usage("; ".join(one.problems))
    item = lambda key, fan: {"term": yichang.ITEMS[key].term, "name": yichang.ITEMS[key].name, "fan": fan}  # noqa: E731
    if args.json:
        print(json.dumps({"complete": one.complete, "may_win": one.complete and one.refusal is None, "refusal": one.refusal,
                          "items": [item(k, f) for k, f in one.items],
                          "payers": {p: {"own": [item(k, f) for k, f in own], "pays": one.amounts[p]} for p, own in one.payer_items.items()},
                          "total": sum(one.amounts.values())}, ensure_ascii=False, indent=2))
    elif not one.complete:
        print("not a complete hand: no reading of these tiles makes four sets and a pair")
    else:
        for k, f in one.items:
            print(f"  {yichang.ITEMS[k].term} {yichang.ITEMS[k].name}: {f} fan")
        print("  (A the winner" + ("" if how == "tsumo" else ", B the discarder" if how == "ron" else ", B the robbed konger") + ")")
        for p, amount in one.amounts.items():
            own = one.payer_items[p]
            extra = " (" + ", ".join(f"槓出 {yichang.ITEMS[k].term} +{f}" for k, f in own) + ")" if own else ""
            print(f"  {p} pays A {amount}{extra}")
        print(f"the winner receives {sum(one.amounts.values())} (the ready-hand payments at the end aside)")
        if one.refusal:
            print(f"but it may not win: {one.refusal}")
    return 0 if one.complete and one.refusal is None else 1


def _wuhan(args: argparse.Namespace, spelling, concealed: list[str], melds: list, tile: str, options: dict[str, str], usage) -> int:  # noqa: ANN001
    from paifu.replay.mahjong import wuhan
    from paifu.replay.mahjong.core import Meld

    if any(getattr(args, name) for name in SANMA_ONLY) or args.seat != "S" or args.round != "E":
        return usage("wuhan has no dora, riichi, honba or winds: say --dealer, and each seat's 開口 and kongs with --seat-has")
    if args.after_kong or args.disclosed or args.turn_kongs:
        return usage("--after-kong, --disclosed and --turn-kongs are kawuxing's")
    if args.rob not in (None, "added"):
        return usage("wuhan robs only an added kong (--rob added)")
    if not args.indicator or not args.dealer:
        return usage("wuhan needs --indicator TILE (it names the 頼子) and --dealer SEAT (A the winner, B the discarder)")
    indicator = _read_tiles(spelling, args.indicator)
    if indicator is None or len(indicator) != 1:
        return usage(f"--indicator takes one tile, not '{args.indicator}'")
    for token in args.chi:
        codes = _read_tiles(spelling, token)
        if codes is None or len(codes) != 3:
            return usage(f"a chi is three tiles in a run (234p), not '{token}'")
        melds.append(Meld("chi", codes[0], run=tuple(codes)))
    seat_items: dict[str, list[str]] = {}
    for given in args.seat_has:
        seat, sep, items = given.partition(":")
        if not sep or not items:
            return usage(f"--seat-has takes SEAT:ITEMS (D:open,red,laizi), not '{given}'")
        seat_items.setdefault(seat, []).extend(i.strip() for i in items.split(","))
    how = "tsumo" if args.tsumo else ("rob" if args.rob else "ron")
    one = wuhan.score_one(concealed, melds, tile, how, indicator[0], args.dealer, seat_items, options,
                          replacement=args.replacement, draw_only=args.last_tile)
    if one.problems:
        return usage("; ".join(one.problems))
    s = one.settlement
    if args.json:
        print(json.dumps({"laizi": one.laizi, "may_win": s is not None, "refusal": one.refusal,
                          "items": [] if s is None else [{"seat": i.seat, "term": i.term, "name": i.name, "value": i.value, "detail": i.detail} for i in s.items],
                          "payments": [] if s is None else [{"payer": p.payer, "payee": p.payee, "amount": p.amount, "reason": p.reason} for p in s.payments],
                          "total": 0 if s is None else s.deltas.get("A", 0)}, ensure_ascii=False, indent=2))
    elif s is None:
        print(f"the 頼子 is {one.laizi}; these tiles do not win: {one.refusal}")
    else:
        print(f"the 頼子 is {one.laizi} (A the winner" + ("" if how == "tsumo" else ", B the discarder" if how == "ron" else ", B the robbed konger") + ")")
        for i in s.items:
            if i.term:
                print(f"  {i.seat}  {i.term} {i.name}: {i.detail or i.value}")
        for p in s.payments:
            print(f"  {p.payer} pays {p.payee} {p.amount} ({p.reason})")
        print(f"the winner receives {s.deltas.get('A', 0)}")
    return 0 if s is not None else 1
