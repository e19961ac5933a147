"""The viewer's routes through Flask's test client: index, record page, steps JSON, source,
static files; traversal attempts; escaping of record text; records that cannot be read."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paifu.notation import read_text
from paifu.viewer import check_path, create_app, serve
from paifu.viewer.steps import build_steps

DEAL = """deal A: 3C 6C 8C 9D 9H TC JC QC QD QH AH 2C 2S
deal B: 3D 3S 4H 4S 5C 5D 5H 7S TH JD KD KS 2H
deal C: 4C 4D 6D 6H 6S 7C 7H JH JS KC KH AD 2D
deal D: 3H 5S 7D 8D 8H 8S 9C 9S TD TS QS AC AS
"""

# A whole hand, a variation, a comment holding <script>, a player's name holding markup.
GOOD = """[Game "bigtwo"]
[Players "A: Ann; B: Bo <script>alert(1)</script>; C: Cy; D: Di"]
[Date "2026.11.21"]
[Result "A"]

hand 1 dealer=B
""" + DEAL + """A: 3C 6C 8C TC JC ! {a club flush to start <script>alert("x")</script>}
  ( A: 3C ?! {only the three} B: 4S )
B: 3D 3S 5C 5D 5H
C: 4C 4D 6D 6H 6S
D: 8D 8H 8S 9C 9S
A: 9D 9H QC QD QH
B: pass
C: pass
D: pass
A: 2C 2S
B: pass
C: pass
D: pass
A: AH
score A +80 B -32 C -32 D -16
"""

# An illegal play at line 10 (3D 3S 4H is no combination); the replay stops there.
ILLEGAL = """[Game "bigtwo"]
[Players "A: Ann; B: Bo; C: Cy; D: Di"]
[Date "2026.11.20"]

hand 1 dealer=B
""" + DEAL + """A: 3C 6C 8C TC JC
B: 3D 3S 4H
C: pass
"""

BROKEN = '[Game "bigtwo"]\n\nhand 1 dealer=A\nA: 3C {never closed\n'
SECRET = "TOP-SECRET-OUTSIDE"


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    root = tmp_path / "records"
    (root / "club").mkdir(parents=True)
    (root / "club" / "good.paifu").write_text(GOOD + "\n" + ILLEGAL, encoding="utf-8")
    (root / "broken.paifu").write_text(BROKEN, encoding="utf-8")
    (root / "notes.txt").write_text("not a record", encoding="utf-8")
    outside = tmp_path / "secret.paifu"
    outside.write_text(f'[Game "bigtwo"]\n{{{SECRET}}}\n', encoding="utf-8")
    try:
        os.symlink(outside, root / "link.paifu")
    except OSError:
        pass
    return root


@pytest.fixture()
def client(folder: Path):
    return create_app(folder).test_client()


def page_data(text: str) -> dict:
    m = re.search(r'<script type="application/json" id="paifu-data">(.*?)</script>', text, re.S)
    assert m, "the record page embeds its steps"
    return json.loads(m.group(1))


# -- index --------------------------------------------------------------------------------
def test_index_lists_every_record_with_its_state(client) -> None:
    r = client.get("/")
    assert r.status_code == 200
    text = r.get_data(as_text=True)
    assert "/record/club/good.paifu?n=1" in text and "/record/club/good.paifu?n=2" in text
    assert "2026.11.21" in text and "Big Two" in text
    assert "valid" in text and "invalid" in text
    assert "L301" in text  # the illegal record's first error
    assert "/record/broken.paifu?n=1" in text and "P102" in text  # listed with its error, not a 500
    assert "notes.txt" not in text
    assert SECRET not in text and "/record/link.paifu" not in text and "/source/link.paifu" not in text
    # a link leading out is listed as unreadable, with why, and never read nor linked
    assert ('<span class="unreadable">link.paifu</span> <span class="sub">P110 a symbolic link leading '
            'outside the folder (not read)</span>') in text
    assert "<script>alert" not in text and "&lt;script&gt;" in text


def test_index_filters_by_game(client) -> None:
    text = client.get("/?game=bigtwo").get_data(as_text=True)
    assert "good.paifu" in text and "broken.paifu" not in text  # the broken record has no game read
    text = client.get("/?game=piquet").get_data(as_text=True)
    assert "good.paifu" not in text and "No record" in text


@pytest.mark.parametrize("column", ["file", "game", "players", "date", "result", "hands", "valid", "bogus"])
@pytest.mark.parametrize("order", ["asc", "desc"])
def test_index_sorts_by_each_column(client, column: str, order: str) -> None:
    r = client.get(f"/?sort={column}&order={order}")
    assert r.status_code == 200


def test_index_sort_by_date_orders_rows(client) -> None:
    text = client.get("/?sort=date&order=desc").get_data(as_text=True)
    assert text.index("2026.11.21") < text.index("2026.11.20")
    text = client.get("/?sort=date&order=asc").get_data(as_text=True)
    assert text.index("2026.11.20") < text.index("2026.11.21")


# -- record page and its steps ------------------------------------------------------------
def test_record_page_embeds_escaped_steps(client) -> None:
    r = client.get("/record/club/good.paifu?n=1")
    assert r.status_code == 200
    text = r.get_data(as_text=True)
    assert "<script>alert" not in text  # neither in the page nor in the embedded JSON
    assert "\\u003cscript\\u003e" in text
    data = page_data(text)
    comment = next(e for e in data["steps"] if e["comments"] and "flush" in e["comments"][0])
    assert comment["comments"] == ['a club flush to start <script>alert("x")</script>']
    assert data["players"]["B"] == "Bo <script>alert(1)</script>"
    assert r.headers["Content-Security-Policy"].startswith("default-src 'self'")


def test_steps_json_has_views_variations_settlement(client) -> None:
    r = client.get("/api/record/club/good.paifu?n=1")
    assert r.status_code == 200
    data = r.get_json()
    steps, parts = data["steps"], data["parts"]
    assert data["valid"] and data["seats"] == ["A", "B", "C", "D"]
    assert [e["kind"] for e in steps[:5]] == ["hand", "setup", "setup", "setup", "setup"]
    lead = next(e for e in steps if e["text"] == "A: 3C 6C 8C TC JC")
    assert lead["glyphs"] == ["!"] and len(lead["vars"]) == 1
    first = steps[lead["vars"][0]]
    assert first["text"] == "A: 3C" and first["depth"] == 1 and first["parent"] == lead["i"]
    assert first["prev"] == lead["prev"]  # a variation starts from the state before its event
    assert steps[first["next"]]["text"] == "B: 4S" and steps[first["next"]]["next"] is None
    assert steps[lead["prev"]]["next"] == lead["i"]  # the main line goes on through the lead
    last = next(e for e in steps if e["text"] == "A: AH")
    settlement = parts[last["settlement"]]
    assert settlement["deltas"] == {"A": 80, "B": -32, "C": -32, "D": -16}
    assert last["written"] == {"A": 80, "B": -32, "C": -32, "D": -16}
    assert any(i["name"] == "twos held" for i in settlement["items"])
    # perspectives: everything shows every hand; seat A's page (?seat=A) sees its own cards,
    # others face down, and carries no other perspective
    view_all = parts[last["views"][""]]
    assert all(list(e["views"]) == [""] for e in steps)
    seat_a = client.get("/api/record/club/good.paifu?n=1&seat=A").get_json()
    assert seat_a["seat"] == "A" and all(list(e["views"]) == ["A"] for e in seat_a["steps"])
    parts = seat_a["parts"]
    lead = next(e for e in seat_a["steps"] if e["text"] == "A: 3C 6C 8C TC JC")
    view_a = parts[lead["views"]["A"]]
    b_seen_by_a = parts[view_a["seats"][1]]
    b_hand = parts[b_seen_by_a["zones"][0]]  # zones, seats and views are shared parts
    assert b_seen_by_a["seat"] == "B" and b_hand["name"] == "hand" and b_hand["cards"] == [] and b_hand["hidden"] == 13
    a_seen_by_a = parts[view_a["seats"][0]]
    assert len(parts[a_seen_by_a["zones"][0]]["cards"]) == 8
    assert view_all["family"] == "french"


def test_illegal_event_carries_its_error_at_its_step(client) -> None:
    data = client.get("/api/record/club/good.paifu?n=2").get_json()
    assert not data["valid"]
    bad = next(e for e in data["steps"] if e["text"] == "B: 3D 3S 4H")
    assert [d["code"] for d in bad["diags"] if d["severity"] == "error"] == ["L301"]
    assert bad["diags"][0]["line"] == bad["line"] == 37  # 25 lines of the first record, a blank, 11 lines
    after = next(e for e in data["steps"] if e["text"] == "C: pass")
    assert not after["replayed"] and after["views"] == bad["views"]


def test_record_that_fails_to_parse_shows_its_error(client) -> None:
    r = client.get("/record/broken.paifu")
    assert r.status_code == 200
    text = r.get_data(as_text=True)
    # a plain page: the error once, linked to its line, no stepping buttons that do nothing
    assert "This record cannot be read" in text
    assert text.count("P102") == 1 and '/source/broken.paifu#L4' in text
    assert "<button" not in text and "paifu-data" not in text
    data = client.get("/api/record/broken.paifu").get_json()
    assert data["unreadable"] and data["all_diagnostics"][0]["code"] == "P102"


def test_source_page_escapes_text(client) -> None:
    r = client.get("/source/club/good.paifu")
    assert r.status_code == 200
    text = r.get_data(as_text=True)
    assert 'id="L10"' in text and "<script>alert" not in text
    assert "{a club flush to start &lt;script&gt;alert(" in text


def test_static_files_are_served(client) -> None:
    for name in ("cards.js", "record.js", "viewer.css"):
        assert client.get(f"/static/{name}").status_code == 200


@pytest.mark.parametrize("url", ["/record/club/good.paifu?n=3", "/record/club/good.paifu?n=x", "/record/nothing.paifu",
                                 "/api/record/club/good.paifu?n=9", "/source/nothing.paifu", "/record/notes.txt"])
def test_missing_things_are_404(client, url: str) -> None:
    r = client.get(url)
    assert r.status_code == 404
    assert "Not found" in r.get_data(as_text=True)


TRAVERSALS = [
    "/record/../secret.paifu", "/record/..%2fsecret.paifu", "/record/%2e%2e/secret.paifu",
    "/record/club/../../secret.paifu", "/source/../secret.paifu", "/source/%2e%2e%2fsecret.paifu",
    "/api/record/..%2F..%2Fsecret.paifu", "/record//etc/passwd", "/source//etc/passwd",
    "/source/link.paifu", "/record/link.paifu", "/api/record/link.paifu",
    "/source/club%5C..%5C..%5Csecret.paifu", "/static/../../secret.paifu", "/static/%2e%2e/__init__.py",
]


def test_links_leading_out_or_nowhere_are_listed_unread_and_refused(tmp_path: Path) -> None:
    # a link to /etc/passwd, a dangling link and a link loop are listed as unreadable (never a
    # 500, never their text); a link to a record inside the folder is served as that record
    root = tmp_path / "records"
    (root / "club").mkdir(parents=True)
    (root / "club" / "good.paifu").write_text(GOOD, encoding="utf-8")
    os.symlink("/etc/passwd", root / "passwd.paifu")
    os.symlink(tmp_path / "gone.paifu", root / "dangling.paifu")
    os.symlink(root / "loop.paifu", root / "loop.paifu")
    os.symlink(root / "club" / "good.paifu", root / "alias.paifu")
    client = create_app(root).test_client()
    text = client.get("/").get_data(as_text=True)
    assert "root:" not in text
    for name, why in (("passwd.paifu", "a symbolic link leading outside the folder"),
                      ("dangling.paifu", "a symbolic link to a missing file"),
                      ("loop.paifu", "a loop of symbolic links")):
        assert f'<span class="unreadable">{name}</span> <span class="sub">P110 {why} (not read)</span>' in text, name
        for url in (f"/record/{name}", f"/source/{name}", f"/api/record/{name}"):
            r = client.get(url)
            assert r.status_code == 404 and "root:" not in r.get_data(as_text=True), url
    assert "/record/alias.paifu?n=1" in text
    assert client.get("/source/alias.paifu").status_code == 200


@pytest.mark.parametrize("url", TRAVERSALS)
def test_no_traversal_out_of_the_served_path(client, url: str) -> None:
    r = client.get(url, follow_redirects=True)  # '//' is first merged by a redirect
    assert r.status_code == 404
    body = r.get_data(as_text=True)
    assert SECRET not in body and "root:" not in body and "def create_app" not in body


def test_a_served_file_shows_only_itself(folder: Path) -> None:
    client = create_app(folder / "club" / "good.paifu").test_client()
    text = client.get("/").get_data(as_text=True)
    assert "good.paifu" in text and "broken.paifu" not in text
    assert client.get("/record/good.paifu?n=2").status_code == 200
    assert client.get("/record/broken.paifu").status_code == 404
    assert client.get("/source/../broken.paifu").status_code == 404


# -- paifu view on paths with nothing to show ------------------------------------------------
def test_serve_refuses_bad_or_empty_paths(tmp_path: Path, capsys) -> None:
    assert serve(str(tmp_path / "missing")) != 0
    assert "no such file" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert serve(str(tmp_path / "empty")) != 0
    assert "no .paifu file" in capsys.readouterr().err
    (tmp_path / "blank.paifu").write_text("\n\n", encoding="utf-8")
    assert serve(str(tmp_path / "blank.paifu")) != 0
    assert "empty" in capsys.readouterr().err


def test_paifu_view_command_exits_non_zero_on_a_bad_path(tmp_path: Path) -> None:
    from paifu.cli import main

    assert main(["view", str(tmp_path / "missing")]) != 0


def test_check_path_accepts_a_folder_with_records(folder: Path) -> None:
    assert check_path(folder) is None
    assert check_path(folder / "club" / "good.paifu") is None


# -- every game with an engine --------------------------------------------------------------
def _engines() -> list[str]:
    from paifu.replay import games

    out = []
    for gid in games.GAME_MODULES:
        try:
            if games.engine(gid) is not None:
                out.append(gid)
        except Exception:  # noqa: BLE001 - an engine still being written
            continue
    return out


@pytest.mark.parametrize("game", _engines())
def test_selfplay_records_of_every_engine_give_tables(game: str) -> None:
    from paifu.notation import write_record
    from paifu.replay import games
    from paifu.replay.selfplay import selfplay_record

    try:
        record = selfplay_record(games.engine(game), 3, 1)
    except Exception as exc:  # noqa: BLE001 - the engine's own tests cover its selfplay
        pytest.skip(f"{game} selfplay failed: {exc}")
    result = next(read_text(write_record(record)))
    data = build_steps(result.record, "x.paifu", 1, result.diagnostics)
    played = [e for e in data["steps"] if e["kind"] == "event"]
    assert played and all(e["views"] is not None for e in played)
    for persp in ["", *data["seats"]]:  # the teacher's page, then each seat's page
        page = build_steps(result.record, "x.paifu", 1, result.diagnostics, seat=persp) if persp else data
        if persp:  # every card dealt is written: a seat's page holds only what it sees
            assert _leaks(page, result.record, persp) == []
        for e in page["steps"]:
            if e["kind"] != "event":
                continue
            assert list(e["views"]) == [persp]
            view = page["parts"][e["views"][persp]]
            assert "error" not in view, view
            assert len(view["seats"]) == len(data["seats"])
            for k in view["seats"]:
                assert all("cards" in page["parts"][z] for z in page["parts"][k]["zones"])


# -- escaping holds for any text ----------------------------------------------------------
comment_text = st.text(alphabet=st.characters(blacklist_characters="{}", blacklist_categories=("Cs", "Cc")), max_size=40)


@settings(max_examples=25, deadline=None)
@given(comment=comment_text, name=st.text(alphabet=st.characters(blacklist_characters=';"\\', blacklist_categories=("Cs", "Cc")), max_size=20))
def test_any_comment_or_name_survives_the_page_escaped(tmp_path_factory, comment: str, name: str) -> None:
    root = tmp_path_factory.mktemp("esc")
    name = name.strip()
    text = GOOD.replace("Bo <script>alert(1)</script>", name or "Bo").replace('<script>alert("x")</script>', comment)
    (root / "r.paifu").write_text(text, encoding="utf-8")
    page = create_app(root).test_client().get("/record/r.paifu").get_data(as_text=True)
    data = page_data(page)
    tail = page.split('id="paifu-data">', 1)[1]
    assert "</script>" not in tail.split("</script>", 1)[0]  # the JSON cannot close its script
    lead = next(e for e in data["steps"] if e["text"] == "A: 3C 6C 8C TC JC")
    assert lead["comments"] == [f"a club flush to start {comment}"]
    assert data["players"]["B"] == (name or "Bo")


# -- records the replay cannot show -----------------------------------------------------------
SHORT_DEAL = """[Game "bigtwo"]

hand 1 dealer=A
deal A: 3C 4C
A: 3C
"""

UNKNOWN_GAME = """[Game "mahjong-from-mars"]

hand 1 dealer=A
A: discard 1z
"""

NO_HAND = '[Game "bigtwo"]\n{only a comment}\n'


@pytest.mark.parametrize("text, code", [(SHORT_DEAL, "L304"), (UNKNOWN_GAME, "R202"), (NO_HAND, "R207")])
def test_records_without_a_table_show_their_error(tmp_path: Path, text: str, code: str) -> None:
    (tmp_path / "r.paifu").write_text(text, encoding="utf-8")
    client = create_app(tmp_path).test_client()
    assert code in client.get("/").get_data(as_text=True)
    r = client.get("/record/r.paifu")
    assert r.status_code == 200
    data = page_data(r.get_data(as_text=True))
    assert not data["valid"] and code in [d["code"] for d in data["all_diagnostics"]]
    shown = [d["code"] for e in data["steps"] for d in e["diags"]] + [d["code"] for d in data["diagnostics"]]
    assert code in shown  # at its step, or with the record when it belongs to no event
    assert all(e["views"] is None for e in data["steps"])


def test_a_wrong_written_score_is_shown_beside_the_computed_one(tmp_path: Path) -> None:
    (tmp_path / "r.paifu").write_text(GOOD.replace("score A +80 B -32", "score A +70 B -22"), encoding="utf-8")
    data = create_app(tmp_path).test_client().get("/api/record/r.paifu").get_json()
    score = next(e for e in data["steps"] if e["kind"] == "score")
    assert score["written"] == {"A": 70, "B": -22, "C": -32, "D": -16}
    assert data["parts"][score["settlement"]]["deltas"]["A"] == 80
    assert sorted(d["code"] for d in score["diags"]) == ["S401", "S401"]  # at the score line, for A and for B


def test_an_engine_failing_to_show_a_step_does_not_break_the_page(tmp_path: Path, monkeypatch) -> None:
    from paifu.replay.cards.bigtwo import BigTwo

    real = BigTwo.view

    def view(self, state, seat):  # type: ignore[no-untyped-def]
        if seat == "C":
            raise RuntimeError("no view for C")
        return real(self, state, seat)

    monkeypatch.setattr(BigTwo, "view", view)
    (tmp_path / "r.paifu").write_text(GOOD, encoding="utf-8")
    client = create_app(tmp_path).test_client()
    for seat, shown in [("C", lambda v: v == {"error": "RuntimeError: no view for C"}), ("A", lambda v: "seats" in v)]:
        r = client.get(f"/record/r.paifu?seat={seat}")
        assert r.status_code == 200
        data = page_data(r.get_data(as_text=True))
        lead = next(e for e in data["steps"] if e["kind"] == "event")  # C's page: a seat without a view sees no card
        assert lead["text"] == ("A: 3C 6C 8C TC JC" if seat == "A" else "A: *****")
        assert shown(data["parts"][lead["views"][seat]])


def test_file_names_with_spaces_and_cjk_are_linked(tmp_path: Path) -> None:
    name = "牌譜 night #1.paifu"
    (tmp_path / "sub dir").mkdir()
    (tmp_path / "sub dir" / name).write_text(GOOD, encoding="utf-8")
    client = create_app(tmp_path).test_client()
    text = client.get("/").get_data(as_text=True)
    link = re.search(r'href="(/record/[^"]+)"', text).group(1)
    assert "%23" in link  # '#' must not start a fragment
    assert client.get(html_unescape(link)).status_code == 200
    assert client.get("/source/sub dir/" + name.replace("#", "%23")).status_code == 200


def html_unescape(s: str) -> str:
    import html

    return html.unescape(s)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_selfplay_steps_link_up(seed: int) -> None:
    """Every event of a generated record is a step with a table; next and prev agree."""
    from paifu.notation import write_record
    from paifu.replay import games
    from paifu.replay.selfplay import selfplay_record

    record = selfplay_record(games.engine("bigtwo"), seed, 2)
    result = next(read_text(write_record(record)))
    data = build_steps(result.record, "x.paifu", 1, result.diagnostics)
    steps = data["steps"]
    assert data["valid"] and all(e["replayed"] for e in steps if e["kind"] in ("hand", "event"))
    assert all(e["views"] is not None for e in steps)
    for e in steps:
        if e["next"] is not None:
            assert steps[e["next"]]["prev"] == e["i"]
    ends = [e for e in steps if e["settlement"] is not None and e["kind"] in ("hand", "event")]
    assert len(ends) == 2 and all(e["written"] == data["parts"][e["settlement"]]["deltas"] for e in ends)


DRAGON = """[Game "bigtwo"]

hand 1 dealer=A
deal A: 3C 4D 5H 6S 7C 8D 9H TS JC QD KH AS 2C
deal B: 3D 4C 5C 6C 7D 8C 9C TC JD QC KC AC 2D
deal C: 3H 4H 5D 6D 7H 8H 9D TD JH QH KD AD 2H
deal D: 3S 4S 5S 6H 7S 8S 9S TH JS QS KS AH 2S
score A +117 B -39 C -39 D -39 {a dragon (一條龍) wins at once: each other seat pays 13 x 3 = 39}
"""


def test_a_hand_won_at_the_deal_shows_its_settlement(tmp_path: Path) -> None:
    (tmp_path / "r.paifu").write_text(DRAGON, encoding="utf-8")
    data = create_app(tmp_path).test_client().get("/api/record/r.paifu").get_json()
    head = data["steps"][0]
    assert data["valid"] and head["kind"] == "hand"
    assert data["parts"][head["settlement"]]["deltas"] == {"A": 117, "B": -39, "C": -39, "D": -39}
    assert head["written"] == {"A": 117, "B": -39, "C": -39, "D": -39}


def test_an_unexpected_failure_is_a_plain_error_page(folder: Path, monkeypatch) -> None:
    import paifu.viewer.routes as routes

    def broken(*_args, **_kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("<b>boom</b>")

    monkeypatch.setattr(routes, "build_steps", broken)
    r = create_app(folder).test_client().get("/record/club/good.paifu")
    assert r.status_code == 500
    text = r.get_data(as_text=True)
    assert "Something went wrong" in text and "boom" not in text and "Traceback" not in text
    assert "<title>error ·" in text and "not found" not in text  # issue 28: it was titled "not found"


# -- second pass: right on every step ----------------------------------------------------
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_a_completed_trick_is_in_the_table_view() -> None:
    """99 (ninetynine-game.paifu): B: 8D, C: KD, A: 6C is trick 1, C's king of trumps wins it
    (trump diamonds: KD beats 8D; 6C does not follow). Piquet (piquet-partie.paifu): A leads
    7H, B follows 9H and wins (same suit, higher), and each seat's tricks count tricks, not cards."""
    record = next(iter(read_text((EXAMPLES / "ninetynine-game.paifu").read_text(encoding="utf-8")))).record
    data = build_steps(record)
    view = data["parts"][data["steps"][12]["views"][""]]
    assert data["steps"][12]["text"] == "A: 6C"
    assert view["last_trick"] == {"number": 1, "plays": [["B", "8D"], ["C", "KD"], ["A", "6C"]], "winner": "C"}
    assert data["parts"][data["steps"][11]["views"][""]]["last_trick"] is None
    record = next(iter(read_text((EXAMPLES / "piquet-partie.paifu").read_text(encoding="utf-8")))).record
    data = build_steps(record)
    view = data["parts"][data["steps"][15]["views"][""]]
    assert data["steps"][15]["text"] == "B: follow 9H"
    assert view["last_trick"] == {"number": 1, "plays": [["A", "7H"], ["B", "9H"]], "winner": "B"}
    seat_b = next(data["parts"][k] for k in view["seats"] if data["parts"][k]["seat"] == "B")
    tricks = [data["parts"][z] for z in seat_b["zones"] if data["parts"][z]["name"] == "tricks"][0]
    assert seat_b["seat"] == "B" and tricks["hidden"] == 1  # one trick taken, not its two cards


STOPPED = ILLEGAL + "\nhand 2 dealer=C\n" + DEAL + "A: 3C\n"

# 99: hand 1 stops before the bids; hand 2's trumps follow from hand 1's successes, which the
# record never reaches, and its hand line writes none (「99」 §カード勝負: 切札は…直前の手で目標どおりに勝った人数)
NINETYNINE_DEAL = """deal A: AS KS QS JS TS 9S 8S 7S 6S AD KD QD
deal B: AH KH QH JH TH 9H 8H 7H 6H JD TD 9D
deal C: AC KC QC JC TC 9C 8C 7C 6C 8D 7D 6D
"""
UNRESUMED = ('[Game "ninetynine"]\n[Result "*"]\n\nhand 1 dealer=A\n' + NINETYNINE_DEAL + "A: AS\n\nhand 2 dealer=B\n"
             + NINETYNINE_DEAL + "C: AC\n")


def test_a_hand_after_an_illegal_action_is_replayed_from_its_own_deal() -> None:
    """Big Two carries only the scores across hands: hand 2 starts from its own deal (N505 at its line)."""
    record = next(iter(read_text(STOPPED))).record
    data = build_steps(record)
    assert data["stopped"] is None
    second = [e for e in data["steps"] if e["hand"] == 1]
    assert second and all(e["views"] is not None for e in second)
    assert all(e["replayed"] for e in second if e["kind"] != "setup")  # set-up lines show the hand's start
    assert [d["code"] for d in second[0]["diags"]] == ["N505"]
    view = data["parts"][second[-1]["views"][""]]  # A has led 3C from hand 2's own deal
    seat_a = next(data["parts"][k] for k in view["seats"] if data["parts"][k]["seat"] == "A")
    hand_a = next(data["parts"][z] for z in seat_a["zones"] if data["parts"][z]["name"] == "hand")
    assert "3C" not in hand_a["cards"] and len(hand_a["cards"]) == 12
    first = [e for e in data["steps"] if e["hand"] == 0 and not e["replayed"]]
    assert first and all(e["views"] is not None for e in first)  # within hand 1: the table at the error


def test_hands_whose_start_cannot_be_known_say_they_are_not_replayed() -> None:
    data = build_steps(next(iter(read_text(UNRESUMED))).record)
    assert data["stopped"]["hand"] == 1 and data["stopped"]["at"] == 10 and "trump=" in data["stopped"]["why"]
    assert data["stopped"]["code"] == "L301" and data["stopped"]["line"] == 8  # A: AS before the bids
    second = [e for e in data["steps"] if e["hand"] == 1]
    assert second and all(e["views"] is None and not e["replayed"] for e in second)  # not hand 1's frozen table
    assert [d["code"] for d in second[0]["diags"]] == ["N502"]


def test_the_move_ending_a_hand_carries_the_totals_after_it() -> None:
    data = build_steps(next(iter(read_text(GOOD))).record)
    end = next(e for e in data["steps"] if e["text"] == "A: AH")
    assert end["settlement"] is not None and end["after"] == {"A": 80, "B": -32, "C": -32, "D": -16}


def test_quiz_steps_carry_the_seats_legal_moves(client) -> None:
    data = page_data(client.get("/record/club/good.paifu?quiz=A").get_data(as_text=True))
    assert data["quiz"] == "A"
    # the page holds the steps as far as the first question: the lead A plays is not sent
    assert [e["text"] for e in data["steps"]][-1].startswith("deal D:") and data["quiz_until"] == 4
    assert "A: 3C 6C 8C TC JC" not in [e["text"] for e in data["steps"]]
    data = client.get("/api/record/club/good.paifu?n=1&quiz=A&upto=99").get_json()  # past the last question
    assert "quiz_until" not in data and data["steps"][-1]["text"].startswith("score")
    deal_end = next(e for e in data["steps"] if e["kind"] == "setup" and e["next"] is not None
                    and data["steps"][e["next"]]["kind"] == "event")
    # A holds 3C and leads the first trick: every legal lead holds 3C (Big Two: the holder of 3C leads it)
    texts = deal_end["choices"]
    assert "A: 3C" in texts and "A: 3C 6C 8C TC JC" in texts
    assert all(c.startswith("A: ") and "3C" in c.split() for c in texts)
    assert not any("choices" in e for e in data["steps"] if e["depth"])  # main line only
    plain = page_data(client.get("/record/club/good.paifu").get_data(as_text=True))
    assert plain["quiz"] == "" and not any("choices" in e for e in plain["steps"])


# -- second pass: speed ---------------------------------------------------------------------
def test_the_index_walks_the_folder_once_not_once_per_file(tmp_path: Path, monkeypatch) -> None:
    from paifu.viewer.library import Library

    for k in range(40):
        (tmp_path / f"r{k:02}.paifu").write_text(GOOD, encoding="utf-8")
    walks = []
    real = Library._walk
    monkeypatch.setattr(Library, "_walk", lambda self: walks.append(1) or real(self))
    client = create_app(tmp_path).test_client()
    assert client.get("/").get_data(as_text=True).count("/record/r") == 40
    assert client.get("/").status_code == 200
    assert len(walks) == 1  # was one walk per file per request: 40 files, 80+ walks


def test_the_nth_record_is_read_alone_through_the_offset_index(tmp_path: Path, monkeypatch) -> None:
    import paifu.viewer.library as library_module

    records = [GOOD.replace('[Date "2026.11.21"]', f'[Date "2026.11.{k:02}"]') for k in range(1, 31)]
    (tmp_path / "many.paifu").write_text("\n".join(records[:14] + [ILLEGAL] + records[14:]), encoding="utf-8")
    lib = library_module.Library.at(tmp_path)
    expected = list(read_text((tmp_path / "many.paifu").read_text(encoding="utf-8")))
    parsed = []
    real = library_module.read_chunk
    monkeypatch.setattr(library_module, "read_chunk", lambda chunk, path="": parsed.append(chunk.line) or real(chunk, path))
    for n in (31, 15, 1, 2):
        parsed.clear()
        got = lib.record("many.paifu", n)
        assert parsed == [expected[n - 1].line]  # this record only, not records 1..n-1
        assert got.line == expected[n - 1].line and got.record.tag("Date") == expected[n - 1].record.tag("Date")
        assert [(d.code, d.line, d.col) for d in got.diagnostics] == [(d.code, d.line, d.col) for d in expected[n - 1].diagnostics]
    assert lib.record("many.paifu", 32) is None and lib.count("many.paifu") == 31
    client = create_app(tmp_path).test_client()
    data = client.get("/api/record/many.paifu?n=15").get_json()
    lines = (tmp_path / "many.paifu").read_text(encoding="utf-8").split("\n")
    assert [d["line"] for d in data["all_diagnostics"] if d["code"] == "L301"] == [lines.index("B: 3D 3S 4H") + 1]
    assert client.get("/record/many.paifu?n=32").status_code == 404


def test_the_index_shows_the_first_scan_as_it_fills(folder: Path) -> None:
    from paifu.viewer.library import Library

    app = create_app(folder)
    lib: Library = app.config["LIBRARY"]
    lib.summaries("broken.paifu")
    lib.scanning = True  # as while serve()'s background scan runs
    text = app.test_client().get("/").get_data(as_text=True)
    assert 'http-equiv="refresh"' in text and "1 of 2 files read" in text
    assert "broken.paifu" in text and "good.paifu" not in text
    lib.scanning = False
    text = app.test_client().get("/").get_data(as_text=True)
    assert "refresh" not in text and "good.paifu" in text


# -- second pass: safety and edges -----------------------------------------------------------
@pytest.mark.parametrize("host, status", [("localhost", 200), ("127.0.0.1:5000", 200), ("[::1]:5000", 200),
                                          ("evil.example:5000", 400), ("evil.example", 400), ("127.0.0.1.evil.example", 400)])
def test_requests_for_another_host_are_refused(folder: Path, host: str, status: int) -> None:
    client = create_app(folder).test_client()
    assert client.get("/", headers={"Host": host}).status_code == status
    assert client.get("/api/record/club/good.paifu", headers={"Host": host}).status_code == status


def test_a_site_bound_to_an_address_answers_that_address(folder: Path) -> None:
    client = create_app(folder, host="192.0.2.7").test_client()
    assert client.get("/", headers={"Host": "192.0.2.7:8000"}).status_code == 200
    assert client.get("/", headers={"Host": "localhost"}).status_code == 400


def test_the_server_names_no_version(folder: Path) -> None:
    import threading
    import urllib.request

    from paifu.viewer import make_quiet_server

    server = make_quiet_server("127.0.0.1", 0, create_app(folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.server_port}/") as r:
            assert r.headers["Server"] == "paifu"
    finally:
        server.shutdown()
        server.server_close()


def test_a_port_in_use_is_a_message_and_exit_2(folder: Path, capsys) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert serve(str(folder), port=port) == 2
    err = capsys.readouterr().err
    assert f"paifu view: port {port} is in use on 127.0.0.1 (another paifu view?): choose another with --port" in err
    assert "http://" not in err and "Traceback" not in err


def test_view_help_describes_host_and_port() -> None:
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "paifu", "view", "--help"], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent).stdout
    flat = " ".join(out.split())
    assert "--host HOST" in flat and "(default: 127.0.0.1, this machine only" in flat
    assert "--port PORT" in flat and "(default: 5000)" in flat


def test_a_long_record_is_sent_a_hand_at_a_time(tmp_path: Path) -> None:
    (tmp_path / "n.paifu").write_text((EXAMPLES / "ninetynine-game.paifu").read_text(encoding="utf-8"), encoding="utf-8")
    app = create_app(tmp_path)
    whole = app.test_client().get("/record/n.paifu")
    app.config["PAGE_STEPS"] = 100
    import paifu.viewer.routes as routes

    routes._built.clear()  # the whole build is kept: this page would be cut from it
    client = app.test_client()
    page = client.get("/record/n.paifu?hand=2")
    data = page_data(page.get_data(as_text=True))
    assert {e["hand"] for e in data["steps"]} == {1} and data["paged"]["hand"] == 1
    assert data["paged"]["total"] == 352 and data["paged"]["starts"][:3] == [0, 41, 79]
    for e in data["steps"]:  # every part a step of this hand uses is sent with it
        view = data["parts"][str(e["views"][""])]
        assert all(str(k) in data["parts"] for k in view["seats"] + view["center"])
        for k in view["seats"]:
            assert all(str(z) in data["parts"] for z in data["parts"][str(k)]["zones"])
    assert len(page.data) * 4 < len(whole.data)  # one hand of nine
    assert len(data["hands"]) == 2 and not data["complete"]  # replayed as far as this hand: the chart fills in
    assert client.get("/api/record/n.paifu?hand=9").get_json()["paged"]["hand"] == 8


def test_a_long_records_page_reads_and_replays_only_as_far_as_it_shows(tmp_path: Path, monkeypatch) -> None:
    import paifu.viewer.routes as routes
    from paifu.viewer.lazy import LazyRecord

    (tmp_path / "n.paifu").write_text((EXAMPLES / "ninetynine-game.paifu").read_text(encoding="utf-8"), encoding="utf-8")
    app = create_app(tmp_path)
    app.config["PAGE_STEPS"] = 100
    monkeypatch.setattr(routes, "build_steps", lambda *a, **k: pytest.fail("a long record is never built whole for its page"))
    routes._built.clear()
    routes._lazy.clear()
    client = app.test_client()
    data = page_data(client.get("/record/n.paifu?hand=3").get_data(as_text=True))
    lazy = next(v for v in routes._lazy.values() if isinstance(v, LazyRecord))
    assert {e["hand"] for e in data["steps"]} == {2} and all(e["views"] for e in data["steps"] if e["replayed"])
    assert sorted(lazy.parsed) == [0, 1, 2, 3] and lazy.progress.replayed == 3  # hand 4 read to know hand 3 is not the last
    assert data["paged"]["starts"][2] == 79 and len(data["paged"]["starts"]) == 9 and data["paged"]["total"] == 352
    assert len(data["hands"]) == 3 and not data["complete"] and data["hand_count"] == 9
    data = page_data(client.get("/record/n.paifu?hand=99").get_data(as_text=True))
    assert {e["hand"] for e in data["steps"]} == {8} and data["complete"] and len(data["hands"]) == 9
    calls = []
    real = lazy.progress.replay_hand
    monkeypatch.setattr(lazy.progress, "replay_hand", lambda k, on: calls.append(k) or real(k, on))
    data = page_data(client.get("/record/n.paifu?hand=2").get_data(as_text=True))
    assert calls == [1] and {e["hand"] for e in data["steps"]} == {1}  # going back: that hand alone, from its start


def test_a_long_records_hand_page_is_the_hand_of_the_whole_build(tmp_path: Path) -> None:
    """Hand by hand, the lazy pages number, link and draw every step as the whole record's build does."""
    import paifu.viewer.routes as routes

    text = (EXAMPLES / "ninetynine-game.paifu").read_text(encoding="utf-8")
    (tmp_path / "n.paifu").write_text(text, encoding="utf-8")
    whole = build_steps(next(iter(read_text(text))).record)
    app = create_app(tmp_path)
    app.config["PAGE_STEPS"] = 100
    routes._built.clear()
    routes._lazy.clear()
    client = app.test_client()

    def drawn(parts, k):  # a part with the parts it refers to, resolved
        part = parts[k] if isinstance(parts, list) else parts[str(k)]
        if isinstance(part, dict) and "seats" in part:
            part = dict(part, seats=[drawn(parts, s) for s in part["seats"]], center=[drawn(parts, z) for z in part["center"]])
        elif isinstance(part, dict) and isinstance(part.get("zones"), list):
            part = dict(part, zones=[drawn(parts, z) for z in part["zones"]])
        return part

    for k in range(9):
        data = client.get(f"/api/record/n.paifu?hand={k + 1}").get_json()
        mine = {e["i"]: e for e in data["steps"]}
        theirs = {e["i"]: e for e in whole["steps"] if e["hand"] == k}
        assert sorted(mine) == sorted(theirs)
        for i, e in mine.items():
            w = theirs[i]
            assert (e["text"], e["prev"], e["next"], e["kind"], e["replayed"]) == (w["text"], w["prev"], w["next"], w["kind"], w["replayed"])
            assert sorted(d["code"] for d in e["diags"]) == sorted(d["code"] for d in w["diags"])
            assert drawn(data["parts"], e["views"][""]) == drawn(whole["parts"], w["views"][""])
            if w["settlement"] is not None:
                assert drawn(data["parts"], e["settlement"]) == drawn(whole["parts"], w["settlement"])
            assert e.get("after") == w.get("after")


def test_the_index_comes_in_pages(folder: Path) -> None:
    app = create_app(folder)
    app.config["PAGE_ROWS"] = 2
    client = app.test_client()
    first = client.get("/?sort=file").get_data(as_text=True)
    assert "3 record(s) in 2 file(s): 1–2 shown" in first and "page 1 of 2" in first
    assert first.count("/record/") == 2 and "broken.paifu" in first
    second = client.get("/?sort=file&page=2").get_data(as_text=True)
    assert second.count("/record/") == 1 and "club/good.paifu?n=2" in second and "‹ previous" in second
    assert client.get("/?page=99").status_code == 200 and client.get("/?page=x").status_code == 200


def test_the_index_links_to_the_scribe_when_it_runs(folder: Path, tmp_path: Path) -> None:
    """#17: with ``paifu view --scribe DIR`` the index offers "New record"; without it, no link."""
    plain_index = create_app(folder).test_client().get("/").get_data(as_text=True)
    assert 'id="new-record"' not in plain_index
    client = create_app(folder, scribe=tmp_path / "scribed").test_client()
    page = client.get("/").get_data(as_text=True)
    assert 'id="new-record" href="/scribe/"' in page and ">New record</a>" in page
    assert client.get("/scribe/").status_code == 200


def test_a_long_record_with_a_broken_hand_is_read_whole(tmp_path: Path) -> None:
    """A hand that cannot be read alone (here a ')' closing nothing in hand 5): the long
    record's page is the whole record's reading, its error shown, never a partial check."""
    import paifu.viewer.routes as routes

    text = (EXAMPLES / "ninetynine-game.paifu").read_text(encoding="utf-8")
    lines = text.split("\n")
    fifth = [i for i, line in enumerate(lines) if line.startswith("hand ")][4]
    lines[fifth + 1] += " )"
    (tmp_path / "n.paifu").write_text("\n".join(lines), encoding="utf-8")
    app = create_app(tmp_path)
    app.config["PAGE_STEPS"] = 100
    routes._built.clear()
    routes._lazy.clear()
    data = app.test_client().get("/api/record/n.paifu?hand=1").get_json()
    assert data["unreadable"] and any(d["code"] == "P101" for d in data["all_diagnostics"])
    assert "complete" not in data


# -- a seat's page holds only what that seat sees (issue 28) --------------------------------
def _table_cards(view) -> "Counter[str]":  # type: ignore[no-untyped-def]
    """Every face-up card of a TableView (zones, groups, the centre, the last trick)."""
    out: Counter[str] = Counter()
    zones = [z for s in view.seats for z in s.zones] + list(view.center)
    for z in zones:
        out.update(c for g in z.groups for c in g) if z.groups else out.update(z.cards)
    if view.last_trick is not None:
        out.update(card for _, card in view.last_trick.plays)
    out.pop("*", None)
    return out


def _record_nodes(record) -> list:  # type: ignore[no-untyped-def]
    """The record's hands and events in the move list's order (each event, then its variations)."""
    out: list = []

    def line(events) -> None:  # type: ignore[no-untyped-def]
        for ev in events:
            out.append(ev)
            for var in ev.variations:
                line(var.events)
    for hand in record.hands:
        out.append(hand)
        line(hand.events)
    return out


def _named(text: str, spelling) -> list[str]:  # type: ignore[no-untyped-def]
    """The cards a text names; not a ``key=value`` option's value (``as=5p``: how the winner reads
    a red five, a declaration, not a card)."""
    words = [w for t in text.split() if "=" not in t for w in re.split(r"[,;:.!?()\[\]{}<>\"'`/+|\\]+", t)]
    return [c for w in words for c in (spelling.read(w) or []) if c != "*"]


def _strings(value) -> list[str]:  # type: ignore[no-untyped-def]
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in _strings(k) + _strings(v)]
    if isinstance(value, list):
        return [t for v in value for t in _strings(v)]
    return []


def _seen_by_engine(record, seat: str):  # type: ignore[no-untyped-def]
    """By replayed node: the cards ``seat``'s table shows, asked of the engine directly."""
    from paifu.replay import replay

    out: dict[int, Counter[str]] = {}

    def on(step) -> None:  # type: ignore[no-untyped-def]
        out[id(step.event)] = _table_cards(step.engine.view(step.state, seat))
    replay(record, on_step=on)
    return out


def _leaks(data: dict, record, seat: str) -> list[str]:
    """What a page served for ``seat`` shows that the seat does not see: another perspective's
    table; at a step, a card named (in its line, comments, messages, settlement) that the
    seat's table shows neither there nor at the step before (a discard won on was in sight),
    unless it is the seat's own line; anywhere in the page, a card the seat never sees."""
    from paifu.notation.cards import spelling_for_game
    from paifu.notation.model import Event, SeatArg

    spelling = spelling_for_game(record.game)
    seen = _seen_by_engine(record, seat)
    nodes = _record_nodes(record)
    steps = {e["i"]: e for e in data["steps"]}
    parts = data["parts"]
    part = (lambda k: parts[k]) if isinstance(parts, list) else (lambda k: parts[str(k)])
    at: dict[int, Counter[str]] = {}
    ever_seat: Counter[str] = Counter()
    out: list[str] = []
    for i in sorted(steps):
        e, node = steps[i], nodes[i]
        if e["views"] is not None and list(e["views"]) != [seat]:
            out.append(f"step {i} carries the tables of {sorted(e['views'])}")
        found = seen.get(id(node))
        if found is None and e["prev"] is not None and e["prev"] in at and steps[e["prev"]]["hand"] == e["hand"]:
            found = at[e["prev"]]  # a set-up line, or a line not replayed: the table before it
        mine = at[i] = found or Counter()
        own = isinstance(node, Event) and (node.seat == seat or any(isinstance(a, SeatArg) and a.seat == seat for a in node.args))
        before = at[e["prev"]] if e["prev"] in at and steps[e["prev"]]["hand"] == e["hand"] else Counter()
        knows = mine + before + (Counter(node.cards()) if own else Counter())  # what it sees, saw a step ago, did
        ever_seat |= knows
        public = own or e["kind"] == "hand"  # a hand line names public cards only (jiuzhi's dealer draws)
        texts = ([] if public else [e["text"]]) + e["comments"] + e.get("var_comments", []) + [d["message"] for d in e["diags"]]
        if e["settlement"] is not None:
            texts += _strings(part(e["settlement"]))
        for t in texts:
            for c in _named(t, spelling):
                if not knows[c]:
                    out.append(f"step {i} ({nodes[i].at.line if nodes[i].at else '?'}): {c} hidden from {seat}, named in {t!r}")
    rest = {k: v for k, v in data.items() if k != "steps"}
    for t in _strings(rest) + [t for e in data["steps"] for t in _strings(e)]:
        for c in _named(t, spelling):
            if not ever_seat[c]:
                out.append(f"{c}: never seen by {seat}, named in {t[:80]!r}")
    return out


def _whole_quiz(client, name: str, seat: str) -> tuple[dict, list[str]]:  # type: ignore[no-untyped-def]
    """The quiz's data as the page gets it, a question at a time (``upto`` the step after the
    last answered), merged; and each answer as served. Each holds the steps as far as its
    question and nothing after it: no later step, no part a later step alone uses."""
    merged: dict = {}
    chunks: list[str] = []
    upto = 0
    while True:
        raw = client.get(f"/api/record/{name}?quiz={seat}&upto={upto}").get_data(as_text=True)
        chunks.append(raw)
        got = json.loads(raw)
        until = got.get("quiz_until")
        if until is not None:
            assert max(e["i"] for e in got["steps"]) == until and "choices" in got["steps"][-1]
            used = {str(k) for e in got["steps"] for k in list((e["views"] or {}).values()) + [e["settlement"]] if k is not None}
            assert used <= set(got["parts"])
        if not merged:
            merged = dict(got, steps=[], parts={})
        steps = {e["i"]: e for e in merged["steps"]}
        steps.update({e["i"]: e for e in got["steps"]})
        parts = got["parts"] if isinstance(got["parts"], dict) else {str(k): p for k, p in enumerate(got["parts"])}
        merged.update(steps=[steps[i] for i in sorted(steps)], parts={**merged["parts"], **parts})
        if until is None:
            return merged, chunks
        upto = steps[until]["next"]


def _example_seats() -> list[tuple[str, str]]:
    from paifu.notation.model import Event, SeatArg

    out = []
    for path in sorted(EXAMPLES.glob("*.paifu")):
        record = next(iter(read_text(path.read_text(encoding="utf-8")))).record
        seats = {e.seat for e in _record_nodes(record) if isinstance(e, Event) and e.seat} | {
            a.seat for e in _record_nodes(record) for a in getattr(e, "args", []) if isinstance(a, SeatArg)}
        assert seats, path  # a record's seats: those that act or are dealt to (the Players tag may be absent)
        out += [(path.name, seat) for seat in sorted(seats)]
    return out


@pytest.mark.parametrize("name, seat", _example_seats())
def test_a_seats_page_holds_no_card_it_cannot_see(tmp_path: Path, name: str, seat: str) -> None:
    import html as htmllib

    from paifu.notation.cards import spelling_for_game

    text = (EXAMPLES / name).read_text(encoding="utf-8")
    (tmp_path / name).write_text(text, encoding="utf-8")
    record = next(iter(read_text(text))).record
    client = create_app(tmp_path).test_client()
    page = client.get(f"/record/{name}?seat={seat}").get_data(as_text=True)
    api = client.get(f"/api/record/{name}?seat={seat}").get_data(as_text=True)
    quiz = client.get(f"/record/{name}?quiz={seat}").get_data(as_text=True)
    whole_quiz, chunks = _whole_quiz(client, name, seat)
    for served in (page_data(page), json.loads(api), whole_quiz):
        assert served["seat"] == seat
        assert _leaks(served, record, seat) == []
    assert page_data(quiz)["steps"] == json.loads(chunks[0])["steps"]
    # the quiz asks wherever the seat has a choice, and the move played is always one of them
    steps = {e["i"]: e for e in whole_quiz["steps"]}
    for e in steps.values():
        if e.get("choices"):
            assert len(e["choices"]) > 1  # a forced move is not asked
            nxt = steps[e["next"]]
            assert nxt["seat"] == seat and nxt["kind"] == "event" and not nxt["depth"]
            assert nxt["text"] in e["choices"]
    # the served bytes as text: no card the seat never sees, whatever field or markup holds it
    spelling = spelling_for_game(record.game)
    everyone = build_steps(record)
    never = {c for t in _strings(everyone) for c in _named(t, spelling)} - {
        c for t in _strings(page_data(page)) for c in _named(t, spelling)}
    for raw in [htmllib.unescape(page), api, htmllib.unescape(quiz)] + chunks:
        assert not never & set(_named(raw.replace("\\u003c", "<").replace("\\u003e", ">").replace("\\u0026", "&"), spelling))


@pytest.mark.parametrize("name, seat, written, seen", [
    # 99: another seat's bid lies face down; the seat's own bid and deal are its own
    ("ninetynine-early.paifu", "A", "B: bid AD KD QD", "B: bid ***"),
    ("ninetynine-early.paifu", "A", "A: bid JK QS 8D", "A: bid JK QS 8D"),
    ("ninetynine-early.paifu", "A", "deal B: AC KC QC 6H 7H 8H 6S 7S 8S AD KD QD", "deal B: ************"),
    ("ninetynine-early.paifu", "B", "A: 9C", "A: 9C"),  # a card played to a trick is seen by all
    # sanma: another seat's draw is hidden, its discard is not; a deal to another seat is hidden
    ("sanma-riichi-nuki.paifu", "A", "B: draw 5z", "B: draw *"),
    ("sanma-riichi-nuki.paifu", "A", "B: discard 5z", "B: discard 5z"),
    ("sanma-riichi-nuki.paifu", "A", "deal B: 234567p345789s1z", "deal B: *************"),
    ("sanma-riichi-nuki.paifu", "A", "dora 1z", "dora 1z"),  # the indicator is turned face up
    ("sanma-riichi-nuki.paifu", "B", "deal B: 234567p345789s1z", "deal B: 234567p345789s1z"),
    # 卡五星: a draw hidden, the same tile disclosed (亮倒) seen
    ("kawuxing-disclosure.paifu", "A", "B: draw 7z", "B: draw *"),
    ("kawuxing-disclosure.paifu", "A", "B: disclose 7z", "B: disclose 7z"),
    # piquet: the talon and the elder's discards are face down; younger's own exchange is his
    ("piquet-partie.paifu", "B", "talon JD JC TD QS 7H QH 7D KS", "talon ********"),
    ("piquet-partie.paifu", "B", "A: exchange 7S 8C 8D 9D QD", "A: exchange *****"),
    ("piquet-partie.paifu", "B", "B: exchange 7C 8H 8S", "B: exchange 7C 8H 8S"),
])
def test_a_seats_move_list_reads_what_the_seat_sees(tmp_path: Path, name: str, seat: str, written: str, seen: str) -> None:
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    (tmp_path / name).write_text(text, encoding="utf-8")
    client = create_app(tmp_path).test_client()
    teacher = client.get(f"/api/record/{name}").get_json()
    mine = client.get(f"/api/record/{name}?seat={seat}").get_json()
    at = next(e["i"] for e in teacher["steps"] if e["text"] == written)  # the first such line
    assert mine["steps"][at]["text"] == seen
    assert teacher["seat"] == "" and all(list(e["views"] or {""}) == [""] for e in teacher["steps"])


def test_a_long_records_hand_pages_for_a_seat_hold_only_what_it_sees(tmp_path: Path) -> None:
    from paifu.viewer import routes

    text = (EXAMPLES / "ninetynine-game.paifu").read_text(encoding="utf-8")
    (tmp_path / "n.paifu").write_text(text, encoding="utf-8")
    record = next(iter(read_text(text))).record
    app = create_app(tmp_path)
    app.config["PAGE_STEPS"] = 100  # a hand at a time (viewer/lazy.py)
    routes._built.clear()
    routes._lazy.clear()
    client = app.test_client()
    for k in (1, 2, 5):
        data = page_data(client.get(f"/record/n.paifu?hand={k}&seat=C").get_data(as_text=True))
        assert "paged" in data and data["seat"] == "C"
        assert _leaks(data, record, "C") == []
        assert any(re.fullmatch(r"[AB]: bid \*\*\*", e["text"]) for e in data["steps"])


def _quiz_before(client, name: str, seat: str, played: str) -> dict:
    """The quiz step at which ``played`` (the seat's move, as written) comes next."""
    data, _ = _whole_quiz(client, name, seat)
    steps = {e["i"]: e for e in data["steps"]}
    return next(e for e in steps.values() if e["next"] is not None and steps[e["next"]]["text"] == played)


def test_the_quiz_offers_every_legal_move_and_skips_forced_ones(tmp_path: Path) -> None:
    for name in ("ninetynine-game.paifu", "sanma-riichi-nuki.paifu", "sanma-tenhou-phoenix.paifu"):
        (tmp_path / name).write_text((EXAMPLES / name).read_text(encoding="utf-8"), encoding="utf-8")
    client = create_app(tmp_path).test_client()
    # 99: C bids 3 of its 12 cards, any 3: C(12, 3) = 220 bids, the one played among them
    bid = _quiz_before(client, "ninetynine-game.paifu", "C", "C: bid QD AD AH")
    texts = bid["choices"]
    assert len(texts) == len(set(texts)) == 220 and "C: bid QD AD AH" in texts
    # sanma: after A's first discard (7z) B holds no 7z: nothing to claim, its draw is forced
    assert "choices" not in _quiz_before(client, "sanma-riichi-nuki.paifu", "B", "B: draw 5z")
    # a claim declined is a pass the record leaves unwritten: the draw that follows stands for it
    claim = _quiz_before(client, "sanma-tenhou-phoenix.paifu", "A", "A: draw 9m")
    texts = claim["choices"]
    assert "A: pon 9p" in texts and "A: draw 9m" in texts and "A: pass" not in texts


def test_a_seat_the_record_does_not_have_gets_the_teachers_page(client) -> None:
    data = client.get("/api/record/club/good.paifu?n=1&seat=Z").get_json()
    assert data["seat"] == "" and all(list(e["views"]) == [""] for e in data["steps"])
    assert all("error" not in data["parts"][e["views"][""]] for e in data["steps"])


@pytest.mark.parametrize("name, seat, written", [
    ("sanma-tenhou-phoenix.paifu", "A", "C: win ron 2s"),  # the tile won on lay face up in A's sight
    ("wuhan-basics.paifu", "B", "D: win ron 6s"),
    ("kawuxing-disclosure.paifu", "A", "B: win ron 3s"),
])
def test_a_discard_won_on_is_named_on_every_seats_page(tmp_path: Path, name: str, seat: str, written: str) -> None:
    (tmp_path / name).write_text((EXAMPLES / name).read_text(encoding="utf-8"), encoding="utf-8")
    client = create_app(tmp_path).test_client()
    teacher = client.get(f"/api/record/{name}").get_json()
    at = next(e["i"] for e in teacher["steps"] if e["text"] == written)
    assert client.get(f"/api/record/{name}?seat={seat}").get_json()["steps"][at]["text"] == written


def test_a_long_records_quiz_page_holds_its_hand_as_far_as_the_next_question(tmp_path: Path) -> None:
    from paifu.viewer import routes

    (tmp_path / "n.paifu").write_text((EXAMPLES / "ninetynine-game.paifu").read_text(encoding="utf-8"), encoding="utf-8")
    app = create_app(tmp_path)
    app.config["PAGE_STEPS"] = 100  # a hand at a time
    routes._built.clear()
    routes._lazy.clear()
    client = app.test_client()
    data = page_data(client.get("/record/n.paifu?hand=2&quiz=C").get_data(as_text=True))
    whole = client.get("/api/record/n.paifu?hand=2&seat=C").get_json()
    hand2 = [e for e in whole["steps"] if e["hand"] == 1]
    # the page holds hand 2 as far as C's first move with a choice (its bid), the move played not sent
    asked = data["steps"][-1]
    assert data["quiz_until"] == asked["i"] and asked["i"] < hand2[-1]["i"]
    assert [e["i"] for e in data["steps"]] == [e["i"] for e in hand2 if e["i"] <= asked["i"]]
    assert whole["steps"][[e["i"] for e in whole["steps"]].index(asked["next"])]["text"] in asked["choices"]
    later = client.get(f"/api/record/n.paifu?hand=2&quiz=C&upto={asked['next']}").get_json()
    assert later["steps"][-1]["i"] > asked["i"] and any(e["i"] == asked["next"] for e in later["steps"])
