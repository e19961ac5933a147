"""The scribe's session model (viewer/scribe_session.py), without a browser.

Every expected action and score is the engine's: these tests check that the scribe writes
what the engine offers, keeps the file canonical, and refuses stale or foreign writes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paifu.notation import parse, write_record
from paifu.replay import games, validate
from paifu.viewer.scribe_session import Locked, Locks, Scribe, ScribeError, Stale, create, record_name, version_of


def _play_out(folder: Path, name: str, limit: int = 2000) -> int:
    """Choose the first offered action until the hand is over; the number of actions."""
    n = 0
    while n < limit:
        s = Scribe(folder, name)
        snap = s.snapshot([])
        if snap["phase"] != "play":
            return n
        a = snap["actions"][0]
        s.act(snap["version"], [], a["i"], a["text"])
        n += 1
    raise AssertionError("the hand did not end")


def _valid(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    report = validate(parse(text))
    assert report.valid, [d.message for d in report.diagnostics]
    assert write_record(parse(text)) == text  # canonical


def test_create_writes_tags_and_refuses_bad_names(tmp_path: Path) -> None:
    path = create(tmp_path, "night", "bigtwo", players=["Ann", "Bo", "Cy", "Di"], date="2026.11.25")
    assert path.name == "night.paifu"
    text = path.read_text(encoding="utf-8")
    assert '[Players "A: Ann; B: Bo; C: Cy; D: Di"]' in text and '[Result "*"]' in text
    for bad in ("../x", "a/b", "/etc/passwd", "..", ".hidden", ""):
        with pytest.raises(ScribeError):
            record_name(bad)
    with pytest.raises(ScribeError):
        create(tmp_path, "night", "bigtwo")  # exists
    with pytest.raises(ScribeError):
        create(tmp_path, "x", "bigtwo", players=["A", "B"])  # Big Two is played by 4
    with pytest.raises(ScribeError):
        create(tmp_path, "y", "nosuchgame")


def test_every_action_offered_is_the_engines(tmp_path: Path) -> None:
    create(tmp_path, "g", "bigtwo")
    s = Scribe(tmp_path, "g")
    s.deal(s.version, seed=3)
    s = Scribe(tmp_path, "g")
    snap = s.snapshot([])
    pos = s.position([])
    engine = games.engine("bigtwo")
    expected = [s.text_of(engine.event_for(pos.state, a)) for a in engine.legal_actions(pos.state)]
    assert [a["text"] for a in snap["actions"]] == expected
    assert snap["to_act"] == engine.to_act(pos.state)
    assert all(a["seat"] == snap["to_act"] for a in snap["actions"])


@pytest.mark.parametrize("game", ["bigtwo", "sanma"])
def test_whole_hand_validates_and_score_is_computed(tmp_path: Path, game: str) -> None:
    path = create(tmp_path, "h", game)
    s = Scribe(tmp_path, "h")
    s.deal(s.version, seed=11)
    assert _play_out(tmp_path, "h") > 0
    s = Scribe(tmp_path, "h")
    snap = s.snapshot([])
    assert snap["phase"] == "score"
    computed = snap["score"]["computed"]
    assert computed == {k: snap["settlement"]["deltas"].get(k, 0) for k in snap["seats"]}
    s.score(snap["version"], [])
    snap = Scribe(tmp_path, "h").snapshot([])
    assert snap["phase"] in ("scored", "over") and snap["score"]["disagree"] == []
    _valid(path)


def test_overwritten_score_is_kept_and_shown_as_disagreement(tmp_path: Path) -> None:
    path = create(tmp_path, "o", "bigtwo")
    s = Scribe(tmp_path, "o")
    s.deal(s.version, seed=2)
    _play_out(tmp_path, "o")
    s = Scribe(tmp_path, "o")
    computed = s.snapshot([])["score"]["computed"]
    s.score(s.version, [], {"A": computed["A"] + 7})
    snap = Scribe(tmp_path, "o").snapshot([])
    assert snap["score"]["written"]["A"] == computed["A"] + 7
    assert snap["score"]["disagree"] == ["A"]
    codes = [d.code for d in validate(parse(path.read_text(encoding="utf-8"))).diagnostics]
    assert "S401" in codes  # the validator shows the disagreement too


def test_undo_any_number_of_steps(tmp_path: Path) -> None:
    create(tmp_path, "u", "sanma")
    s = Scribe(tmp_path, "u")
    s.deal(s.version, seed=4)
    texts = []
    for _ in range(5):
        s = Scribe(tmp_path, "u")
        snap = s.snapshot([])
        texts.append(snap["text"])
        s.act(snap["version"], [], 0, snap["actions"][0]["text"])
    s = Scribe(tmp_path, "u")
    s.undo(s.version, [], 3)
    assert Scribe(tmp_path, "u").text == texts[2]
    s = Scribe(tmp_path, "u")
    s.undo(s.version, [], 2)
    assert Scribe(tmp_path, "u").text == texts[0]
    s = Scribe(tmp_path, "u")
    s.undo(s.version, [], 1)  # the deal itself
    assert Scribe(tmp_path, "u").snapshot([])["phase"] == "deal"


def test_stale_page_cannot_overwrite(tmp_path: Path) -> None:
    create(tmp_path, "s", "bigtwo")
    s = Scribe(tmp_path, "s")
    old = s.version
    s.deal(old, seed=1)
    with pytest.raises(Stale):
        Scribe(tmp_path, "s").deal(old, seed=2)
    snap = Scribe(tmp_path, "s").snapshot([])
    with pytest.raises(Stale):
        Scribe(tmp_path, "s").act(old, [], 0)
    with pytest.raises(Stale):  # the action shown is not the one at that index any more
        Scribe(tmp_path, "s").act(snap["version"], [], 0, "D: 3C 4C")


def test_locks_refuse_a_second_tab() -> None:
    locks = Locks()
    locks.acquire("r.paifu", "tab1")
    locks.acquire("r.paifu", "tab1")  # a reload of the same tab
    with pytest.raises(Locked):
        locks.acquire("r.paifu", "tab2")
    with pytest.raises(Locked):
        locks.check("r.paifu", "tab2")
    locks.acquire("r.paifu", "tab2", force=True)  # taken over explicitly
    with pytest.raises(Locked):
        locks.check("r.paifu", "tab1")
    locks.release("r.paifu", "tab2")
    locks.check("r.paifu", "tab3")  # free again (as after a restart): the first writer holds it


def test_variation_comment_and_glyph(tmp_path: Path) -> None:
    path = create(tmp_path, "v", "bigtwo")
    s = Scribe(tmp_path, "v")
    s.deal(s.version, seed=6)
    offered: list[str] = []
    for k in range(3):
        s = Scribe(tmp_path, "v")
        snap = s.snapshot([])
        if k == 0:
            offered = [a["text"] for a in snap["actions"]]
        s.act(snap["version"], [], 0, snap["actions"][0]["text"])
    s = Scribe(tmp_path, "v")
    first = s.snapshot([])["line"][0]["i"]
    line = s.vary([], first)
    assert line == [[first, 0]]
    # the variation is replayed from the state before the event it replaces
    s.act(s.version, line, len(offered) - 1, offered[-1])
    s = Scribe(tmp_path, "v")
    s.annotate(s.version, [], first, "the main line", ["!?"])
    s = Scribe(tmp_path, "v")
    vsnap = s.snapshot(line)
    assert [e["text"] for e in vsnap["line"]] == [offered[-1]]
    s.annotate(vsnap["version"], line, 0, "a better start", ["!"])
    text = path.read_text(encoding="utf-8")
    assert "!? {the main line}" in text and "( " + offered[-1] + " ! {a better start} )" in text
    _valid(path)
    # undoing the variation's only event, then the empty variation, returns to the main line
    s = Scribe(tmp_path, "v")
    _, back = s.undo(s.version, line, 2)
    assert back == [] and "(" not in path.read_text(encoding="utf-8")


def test_written_event_is_checked_by_the_engine(tmp_path: Path) -> None:
    create(tmp_path, "w", "bigtwo")
    s = Scribe(tmp_path, "w")
    s.deal(s.version, seed=8)
    s = Scribe(tmp_path, "w")
    snap = s.snapshot([])
    with pytest.raises(ScribeError) as err:
        s.write(snap["version"], [], f"{snap['to_act']}: 3C 3C 3C 3C 3C")
    assert "L3" in err.value.message
    s = Scribe(tmp_path, "w")
    s.write(s.version, [], snap["actions"][0]["text"])
    assert Scribe(tmp_path, "w").snapshot([])["line"][0]["text"] == snap["actions"][0]["text"]


def test_entered_deal_with_unseen_hands(tmp_path: Path) -> None:
    create(tmp_path, "e", "bigtwo")
    s = Scribe(tmp_path, "e")
    template = s.template()
    assert template.splitlines()[0].startswith("hand 1")  # the hand's own line first, then its set-up lines
    assert template.count("deal ") == 4 and "*" in template
    with pytest.raises(ScribeError):
        s.deal(s.version, setup="A: 3C")  # not a set-up line
    # the engine's own practice deal, with C's and D's cards unseen
    practice = Scribe(tmp_path, "e")
    practice.deal(practice.version, seed=9)
    lines = Scribe(tmp_path, "e").text.split("hand 1")[1].strip().splitlines()[1:5]
    s = Scribe(tmp_path, "e")
    s.undo(s.version, [], 1)
    entered = "\n".join(lines[:2] + [ln.split(":")[0] + ": " + " ".join(["*"] * 13) for ln in lines[2:]])
    s = Scribe(tmp_path, "e")
    s.deal(s.version, setup=entered)
    snap = Scribe(tmp_path, "e").snapshot([])
    assert snap["phase"] == "play"
    assert "deal C: " + "*" * 13 in snap["text"]  # entered as 13 stars apart: one run, written canonically


def test_entered_deal_keeps_the_hand_line_and_leaves_out_an_unseen_wall(tmp_path: Path) -> None:
    # Jiuzhi's first hand names its dealer on the hand line (「四色牌の九支十仔」 §◆開始: the dealer
    # takes 10 cards): the line entered is kept, so the deal matches it.
    create(tmp_path, "j", "jiuzhi")
    src = Scribe(tmp_path, "j")
    src.deal(src.version, seed=4)
    text = Scribe(tmp_path, "j").text
    hand = text[text.index("hand 1"):].strip().splitlines()
    s = Scribe(tmp_path, "j")
    s.undo(s.version, [], 1)
    s = Scribe(tmp_path, "j")
    with pytest.raises(ScribeError, match="this is hand 1"):
        s.deal(s.version, setup="\n".join(["hand 2" + hand[0][len("hand 1"):]] + hand[1:]))
    s.deal(s.version, setup="\n".join(hand))
    assert Scribe(tmp_path, "j").text == text
    # Sanma's wall is written whole or not at all: a wall line left all '*' is left out
    create(tmp_path, "w", "sanma")
    s = Scribe(tmp_path, "w")
    template = s.template()
    assert template.splitlines()[-1].startswith("wall * * *")
    src = Scribe(tmp_path, "w")
    src.deal(src.version, seed=2)
    dealt = Scribe(tmp_path, "w").record.hands[0].events
    s = Scribe(tmp_path, "w")
    s.undo(s.version, [], 1)
    lines = template.splitlines()
    lines[1] = s.text_of(dealt[0])  # A's hand seen; B's and C's hands and the wall unseen
    s = Scribe(tmp_path, "w")
    s.deal(s.version, setup="\n".join(lines))
    text = Scribe(tmp_path, "w").text
    assert "\nwall" not in text and "deal B: *" in text


def test_resume_after_restart_reads_the_file(tmp_path: Path) -> None:
    create(tmp_path, "r", "sanma")
    s = Scribe(tmp_path, "r")
    s.deal(s.version, seed=12)
    for _ in range(4):
        s = Scribe(tmp_path, "r")
        snap = s.snapshot([])
        s.act(snap["version"], [], 0, snap["actions"][0]["text"])
    text = (tmp_path / "r.paifu").read_text(encoding="utf-8")
    again = Scribe(tmp_path, "r")  # a new server reads only the file
    assert again.version == version_of(text)
    assert len(again.snapshot([])["line"]) == 4
    assert not list(tmp_path.glob(".*.tmp"))  # no temporary file left behind


# -- the blueprint through Flask's test client ----------------------------------------------
def _client(tmp_path: Path):
    import re

    from paifu.viewer import create_app

    app = create_app(tmp_path, scribe=tmp_path)
    client = app.test_client()
    page = client.get("/scribe/").get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    return client, csrf


def test_blueprint_needs_the_csrf_token_and_a_same_origin(tmp_path: Path) -> None:
    client, csrf = _client(tmp_path)
    assert client.post("/scribe/new", data={"name": "a", "game": "bigtwo"}).status_code == 403
    assert not (tmp_path / "a.paifu").exists()
    done = client.post("/scribe/new", data={"csrf": csrf, "name": "a", "game": "bigtwo"})
    assert done.status_code == 302 and done.headers["Location"].endswith("/scribe/r/a.paifu")
    body = {"op": "open", "token": "t1"}
    assert client.post("/scribe/api/a.paifu", json=body).status_code == 403
    assert client.post("/scribe/api/a.paifu", json=body, headers={"X-Scribe-CSRF": "wrong"}).status_code == 403
    foreign = {"X-Scribe-CSRF": csrf, "Origin": "http://evil.example"}
    assert client.post("/scribe/api/a.paifu", json=body, headers=foreign).status_code == 403
    assert client.post("/scribe/api/a.paifu", json=body, headers={"X-Scribe-CSRF": csrf}).status_code == 200


def test_blueprint_plays_refuses_a_second_tab_and_stale_versions(tmp_path: Path) -> None:
    client, csrf = _client(tmp_path)
    client.post("/scribe/new", data={"csrf": csrf, "name": "b", "game": "sanma"})
    h = {"X-Scribe-CSRF": csrf}
    assert client.post("/scribe/api/b.paifu", json={"op": "open", "token": "one"}, headers=h).status_code == 200
    assert client.post("/scribe/api/b.paifu", json={"op": "open", "token": "two"}, headers=h).status_code == 423
    snap = client.get("/scribe/api/b.paifu").get_json()
    assert snap["phase"] == "deal" and "deal A: *" in snap["template"]
    dealt = client.post("/scribe/api/b.paifu", json={"op": "deal", "token": "one", "version": snap["version"], "seed": 1}, headers=h)
    assert dealt.status_code == 200
    snap2 = dealt.get_json()
    assert snap2["phase"] == "play" and snap2["actions"]
    again = client.post("/scribe/api/b.paifu", json={"op": "deal", "token": "one", "version": snap["version"]}, headers=h)
    assert again.status_code == 409  # the page saw an older file
    other = client.post("/scribe/api/b.paifu", json={"op": "act", "token": "two", "version": snap2["version"], "index": 0}, headers=h)
    assert other.status_code == 423
    a = snap2["actions"][0]
    acted = client.post("/scribe/api/b.paifu", json={"op": "act", "token": "one", "version": snap2["version"], "index": a["i"],
                                                      "text": a["text"], "path": []}, headers=h)
    assert acted.status_code == 200 and acted.get_json()["line"][0]["text"] == a["text"]


def test_blueprint_serves_no_path_outside_its_folder(tmp_path: Path) -> None:
    (tmp_path / "inner").mkdir()
    client, csrf = _client(tmp_path / "inner")
    (tmp_path / "secret.paifu").write_text('[Game "bigtwo"]\n', encoding="utf-8")
    for url in ("/scribe/r/..%2Fsecret.paifu", "/scribe/api/..%2Fsecret.paifu", "/scribe/r/%2Fetc%2Fpasswd",
                "/scribe/api/.hidden.paifu", "/scribe/r/../secret.paifu"):
        assert client.get(url).status_code == 404, url
    bad = client.post("/scribe/new", data={"csrf": csrf, "name": "../escape", "game": "bigtwo"})
    assert bad.status_code == 302 and "error=" in bad.headers["Location"]
    assert not (tmp_path / "escape.paifu").exists()


def test_view_scribe_refuses_a_file_as_folder(tmp_path: Path, capsys) -> None:
    from paifu.viewer import serve

    target = tmp_path / "f.paifu"
    target.write_text("x", encoding="utf-8")
    assert serve(None, scribe=str(target)) == 2
    assert "not a folder" in capsys.readouterr().err
    assert serve(None) == 2


def test_palette_is_every_card_of_the_engines_deal(tmp_path: Path) -> None:
    create(tmp_path, "p", "bigtwo")
    palette = Scribe(tmp_path, "p").palette()
    # Big Two deals the whole 52-card pack: 13 ranks x 4 suits, each code once, by suit then rank
    assert len(palette) == 52 == len(set(palette))
    assert palette[:3] == ["2C", "3C", "4C"] and palette[12] == "AC" and palette[13] == "2D"
    create(tmp_path, "m", "sanma")
    tiles = Scribe(tmp_path, "m").palette()
    assert tiles[0] == "1m" and "2m" not in tiles  # the engine's Sanma deal holds no 2m..8m


def test_a_variation_not_written_yet_offers_the_state_before_its_event(tmp_path: Path) -> None:
    create(tmp_path, "n", "bigtwo")
    s = Scribe(tmp_path, "n")
    s.deal(s.version, seed=6)
    s = Scribe(tmp_path, "n")
    offered = [a["text"] for a in s.snapshot([])["actions"]]
    s.act(s.version, [], 0, offered[0])
    s = Scribe(tmp_path, "n")
    before = s.text
    line = s.vary([], s.snapshot([])["line"][0]["i"])
    snap = s.snapshot(line)
    assert snap["line"] == [] and [a["text"] for a in snap["actions"]] == offered
    assert Scribe(tmp_path, "n").text == before  # nothing written before its first event


def test_blueprint_answers_bad_requests_with_a_message(tmp_path: Path) -> None:
    client, csrf = _client(tmp_path)
    client.post("/scribe/new", data={"csrf": csrf, "name": "c", "game": "bigtwo"})
    h = {"X-Scribe-CSRF": csrf}
    version = client.get("/scribe/api/c.paifu").get_json()["version"]
    for body in ({"op": "act", "token": "t", "version": version, "index": "x"},
                 {"op": "annotate", "token": "t", "version": version, "index": 0, "comment": 5},
                 {"op": "undo", "token": "t", "version": version, "path": "nonsense"},
                 {"op": "score", "token": "t", "version": version, "written": {"A": "many"}},
                 {"op": "fly", "token": "t", "version": version}):
        answer = client.post("/scribe/api/c.paifu", json=body, headers=h)
        assert 400 <= answer.status_code < 500 and answer.get_json()["error"], body
    (tmp_path / "bad.paifu").write_bytes(b"\xff\xfe[Game")
    assert client.get("/scribe/api/bad.paifu").status_code == 400


def test_variation_from_any_earlier_step_and_inside_a_variation(tmp_path: Path) -> None:
    # a variation may replace any event of the line, not only the last or the first, and a
    # variation may have its own variations
    path = create(tmp_path, "w", "sanma")
    s = Scribe(tmp_path, "w")
    s.deal(s.version, seed=8)
    offered_before: list[list[str]] = []
    for _ in range(6):
        s = Scribe(tmp_path, "w")
        snap = s.snapshot([])
        offered_before.append([a["text"] for a in snap["actions"]])
        s.act(snap["version"], [], 0, snap["actions"][0]["text"])
    s = Scribe(tmp_path, "w")
    main = s.snapshot([])["line"]
    third = main[2]["i"]
    line = s.vary([], third)
    # the variation starts from the state before the third event: the same actions are offered
    assert [a["text"] for a in s.snapshot(line)["actions"]] == offered_before[2]
    for pick in (-1, 0):
        snap = Scribe(tmp_path, "w").snapshot(line)
        Scribe(tmp_path, "w").act(snap["version"], line, snap["actions"][pick]["i"], snap["actions"][pick]["text"])
    s = Scribe(tmp_path, "w")
    vline = s.snapshot(line)["line"]
    assert len(vline) == 2 and vline[0]["text"] == offered_before[2][-1]
    nested = s.vary(line, vline[1]["i"])
    assert nested == line + [[vline[1]["i"], 0]]
    snap = s.snapshot(nested)
    Scribe(tmp_path, "w").act(snap["version"], nested, snap["actions"][-1]["i"], snap["actions"][-1]["text"])
    text = path.read_text(encoding="utf-8")
    assert text.count("(") == 2 and "  ( " in text and "    ( " in text  # a variation inside a variation
    assert len(Scribe(tmp_path, "w").snapshot([])["line"]) == 6  # the main line is untouched
    _valid(path)


def test_every_save_is_a_whole_file_renamed_into_place(tmp_path: Path, monkeypatch) -> None:
    import os

    path = create(tmp_path, "a", "bigtwo")
    before = path.read_text(encoding="utf-8")
    s = Scribe(tmp_path, "a")

    def fail(src: str, dst: str) -> None:
        raise OSError("the disk is full")

    monkeypatch.setattr(os, "replace", fail)  # the crash comes before the rename
    with pytest.raises(ScribeError, match="cannot write: the disk is full"):  # said, not a 500
        s.deal(s.version, seed=1)
    assert path.read_text(encoding="utf-8") == before  # the old file, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.paifu"]  # no temporary file left over
    monkeypatch.undo()
    renamed: list[tuple[Path, Path]] = []
    real = os.replace

    def spy(src: str, dst: str) -> None:
        renamed.append((Path(src), Path(dst)))
        real(src, dst)

    monkeypatch.setattr(os, "replace", spy)
    s = Scribe(tmp_path, "a")
    s.deal(s.version, seed=1)
    (src, dst), = renamed
    assert dst == path and src.parent == path.parent and src.name.startswith(".a.paifu.")  # same folder: an atomic rename
    assert "hand 1" in path.read_text(encoding="utf-8")


def test_scribe_listens_on_this_machine_only_by_default(tmp_path: Path, monkeypatch, capsys) -> None:
    import paifu.cli as paifu_cli
    import paifu.viewer as viewer
    from paifu.viewer import create_app

    assert paifu_cli.build_parser().parse_args(["view", "--scribe", str(tmp_path)]).host == "127.0.0.1"
    bound: list[str] = []

    class Stopped:
        server_port = 5000

        def serve_forever(self) -> None:
            raise KeyboardInterrupt

        def server_close(self) -> None:
            pass

    def make(host: str, port: int, app) -> Stopped:
        bound.append(host)
        return Stopped()

    monkeypatch.setattr(viewer, "probe_port", lambda host, port: None)
    monkeypatch.setattr(viewer, "make_quiet_server", make)
    assert paifu_cli.main(["view", "--scribe", str(tmp_path / "club")]) == 0
    err = capsys.readouterr().err
    assert bound == ["127.0.0.1"] and "warning" not in err and "http://127.0.0.1:5000/scribe/" in err
    assert paifu_cli.main(["view", "--scribe", str(tmp_path / "club"), "--host", "0.0.0.0"]) == 0
    assert bound[-1] == "0.0.0.0" and "warning: serving on 0.0.0.0" in capsys.readouterr().err
    # a page reached under another host name (DNS rebinding) is refused
    client = create_app(tmp_path, scribe=tmp_path).test_client()
    assert client.get("/scribe/", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/scribe/", headers={"Host": "127.0.0.1:5000"}).status_code == 200


def test_unseen_hand_is_offered_its_possible_actions(tmp_path: Path) -> None:
    # the page's actions are the engine's candidate_actions: the legal ones, then those resting
    # on unseen cards (marked), with the cards they could be; clicking one writes it
    create(tmp_path, "u", "bigtwo")
    s = Scribe(tmp_path, "u")
    s.deal(s.version, setup="hand 1\ndeal A: 3C 3D 3H 4C 4D 4H 5C 5D 5H 6C 6D 6H 7C\n"
                            "deal C: 8C 8D 8H 9C 9D 9H TC TD TH JC JD JH QC")
    s = Scribe(tmp_path, "u")
    snap = s.snapshot([])
    assert snap["to_act"] == "A" and not any(a["unseen"] for a in snap["actions"]) and snap["could"] == []
    opening = next(a for a in snap["actions"] if a["text"] == "A: 3C")
    s.act(snap["version"], [], opening["i"], opening["text"])
    s = Scribe(tmp_path, "u")
    snap = s.snapshot([])
    engine = games.engine("bigtwo")
    pos = s.position([])
    assert [a["text"] for a in snap["actions"]] == [s.text_of(engine.event_for(pos.state, a)) for a in engine.candidate_actions(pos.state)]
    assert snap["to_act"] == "B" and all(a["unseen"] for a in snap["actions"]) and len(snap["actions"]) == 27
    assert len(snap["could"]) == 26 and "2S" in snap["could"] and "QC" not in snap["could"]
    two = next(a for a in snap["actions"] if a["text"] == "B: 2S")
    s.act(snap["version"], [], two["i"], two["text"])
    assert (tmp_path / "u.paifu").read_text(encoding="utf-8").rstrip().endswith("B: 2S")
    _valid(tmp_path / "u.paifu")


PAOMAZAI_DEAL = ("hand 1 dealer=A\ndeal A: 2468m2468p2468s77z\ndeal B: 123m456p789s1117z\n"
                 "deal C: 123m456p789s2345z\ndeal D: *************")


def _written(folder: Path, name: str, game: str, setup: str, lines: list[str]) -> Scribe:
    """A new record: the deal entered, then each line typed; the scribe after the last one."""
    create(folder, name, game)
    s = Scribe(folder, name)
    s.deal(s.version, setup=setup)
    for line in lines:
        s = Scribe(folder, name)
        s.write(s.version, [], line)
    return Scribe(folder, name)


def test_an_unseen_hand_is_offered_a_late_win_before_the_score(tmp_path: Path) -> None:
    # 「香港雀荘と澳門カジノの麻雀・跑馬仔」 ■得点一覧 (食糊(ロン)…300点) with several winners on one
    # discard (RULINGS §paomazai): B's seen hand wins on A's 7z and the replay ends the hand;
    # C's seen hand cannot win on 7z, D's hand is unseen and may still win, until the score line.
    s = _written(tmp_path, "late", "paomazai", PAOMAZAI_DEAL, ["A: discard 7z", "B: win ron 7z"])
    snap = s.snapshot([])
    assert snap["phase"] == "score"
    assert [a["text"] for a in snap["late"]] == ["D: win ron 7z"]  # not C (seen), not B (won), not A
    assert snap["score"]["computed"] == {"A": -300, "B": 300, "C": 0, "D": 0}
    with pytest.raises(ScribeError, match="hand is over"):
        s.write(s.version, [], "C: win ron 7z")  # a seen hand that does not win: not a late win
    s.act(snap["version"], [], snap["late"][0]["i"], snap["late"][0]["text"])
    s = Scribe(tmp_path, "late")
    snap = s.snapshot([])
    assert snap["phase"] == "score" and snap["late"] == []  # D has won: nobody else may
    assert snap["score"]["computed"] == {"A": -600, "B": 300, "C": 0, "D": 300}  # 300 from the discarder to each
    s.score(snap["version"], [], snap["score"]["computed"])
    s = Scribe(tmp_path, "late")
    assert s.snapshot([])["late"] == []
    text = (tmp_path / "late.paifu").read_text(encoding="utf-8")
    assert "B: win ron 7z\nD: win ron 7z\nscore A -600 B +300 C 0 D +300" in text
    _valid(tmp_path / "late.paifu")


def test_a_late_win_can_be_typed_until_the_score_line(tmp_path: Path) -> None:
    # typing the late win works as clicking it; once the score line is written it is refused
    s = _written(tmp_path, "typed", "paomazai", PAOMAZAI_DEAL, ["A: discard 7z", "B: win ron 7z", "D: win ron 7z"])
    snap = s.snapshot([])
    assert snap["score"]["computed"] == {"A": -600, "B": 300, "C": 0, "D": 300}
    s.score(snap["version"], [], snap["score"]["computed"])
    s = Scribe(tmp_path, "typed")
    with pytest.raises(ScribeError, match="hand is over"):
        s.write(s.version, [], "C: win ron 7z")
    _valid(tmp_path / "typed.paifu")


# -- files: links, fields, bodies, modes ---------------------------------------------------
SECRET = "TOP-SECRET-OUTSIDE"


def test_links_leading_out_of_the_folder_are_never_read_nor_written(tmp_path: Path) -> None:
    # the issue: GET /scribe/api/link.paifu returned the target's text (a link to /etc/passwd
    # showed its lines inside P108 messages). Every path is resolved: a link leading out, or
    # to nothing, is listed with its problem and refused when read or written, never a 500
    root = tmp_path / "scribe"
    root.mkdir()
    outside = tmp_path / "secret.paifu"
    outside.write_text(f'[Game "bigtwo"]\n[Event "{SECRET}"]\n[Result "*"]\n', encoding="utf-8")
    before = outside.read_bytes()
    (root / "link.paifu").symlink_to(outside)
    (root / "passwd.paifu").symlink_to("/etc/passwd")
    (root / "dangling.paifu").symlink_to(tmp_path / "gone.paifu")
    client, csrf = _client(root)
    h = {"X-Scribe-CSRF": csrf}
    index = client.get("/scribe/").get_data(as_text=True)
    assert SECRET not in index and "root:" not in index
    assert "link.paifu <span class=\"sub\">a symbolic link leading outside the folder (not read)" in index
    assert "dangling.paifu <span class=\"sub\">a symbolic link to a missing file (not read)" in index
    assert 'href="/scribe/r/link.paifu"' not in index
    for name in ("link.paifu", "passwd.paifu", "dangling.paifu"):
        r = client.get(f"/scribe/api/{name}")
        body = r.get_data(as_text=True)
        assert r.status_code == 403 and SECRET not in body and "root:" not in body, name
        assert r.get_json()["error"].startswith(f"{name}: a symbolic link"), name
        page = client.get(f"/scribe/r/{name}")
        assert page.status_code == 403 and "a symbolic link" in page.get_data(as_text=True)
        assert "<title>refused" in page.get_data(as_text=True)
        assert client.post(f"/scribe/api/{name}", json={"op": "open", "token": "t"}, headers=h).status_code == 200
        r = client.post(f"/scribe/api/{name}", json={"op": "finish", "token": "t", "version": "", "result": "A 1"}, headers=h)
        assert r.status_code == 403 and SECRET not in r.get_data(as_text=True), name
    # creating a record over a link (even one leading nowhere) is refused: nothing written through it
    for name in ("link", "dangling"):
        r = client.post("/scribe/new", data={"csrf": csrf, "name": name, "game": "bigtwo"})
        assert r.status_code == 302 and "already+exists" in r.headers["Location"]
    assert outside.read_bytes() == before and not (tmp_path / "gone.paifu").exists()
    assert (root / "link.paifu").is_symlink() and (root / "dangling.paifu").is_symlink()
    # a record resolved, then swapped for a link before it is read: not read through the link
    from paifu.viewer.scribe_session import read_text

    with pytest.raises(OSError):
        read_text(root / "link.paifu")


def test_a_link_to_a_record_inside_the_folder_writes_its_target(tmp_path: Path) -> None:
    (tmp_path / "club").mkdir()
    real = create(tmp_path / "club", "night", "bigtwo")
    (tmp_path / "alias.paifu").symlink_to(real)
    s = Scribe(tmp_path, "alias")
    s.deal(s.version, seed=1)
    assert (tmp_path / "alias.paifu").is_symlink()  # the link stays a link
    assert "\nhand 1 " in real.read_text(encoding="utf-8")


def _opened(tmp_path: Path, name: str = "f", game: str = "bigtwo"):
    """A client, its CSRF headers and a new record opened by the tab 't'."""
    client, csrf = _client(tmp_path)
    client.post("/scribe/new", data={"csrf": csrf, "name": name, "game": game})
    h = {"X-Scribe-CSRF": csrf}
    assert client.post(f"/scribe/api/{name}.paifu", json={"op": "open", "token": "t"}, headers=h).status_code == 200
    return client, csrf, h


@pytest.mark.parametrize("field, value, said", [
    ("result", "A\n[Game \"x\"]", "the result holds a control character (U+000A"),
    ("result", "A\u2028B", "the result holds a control character (U+2028"),
    ("result", "A" * 201, "the result is at most 200 characters; this one has 201"),
    ("comment", "nice\x00", "a comment holds a control character (U+0000"),
    ("comment", "x" * 1001, "a comment is at most 1000 characters"),
    ("text", "A: 3C {x\x1b[2J}", "an event holds a control character (U+001B"),
    ("setup", "deal A: 3C\x07", "the set-up lines hold a control character (U+0007"),
])
def test_fields_with_control_characters_or_too_long_are_refused(tmp_path: Path, field: str, value: str, said: str) -> None:
    # the issue: a new line in a Finish result was written into the file and corrupted it (P102)
    client, _, h = _opened(tmp_path)
    op = {"result": "finish", "comment": "annotate", "text": "write", "setup": "deal"}[field]
    if op in ("annotate", "write"):
        snap = client.get("/scribe/api/f.paifu").get_json()
        client.post("/scribe/api/f.paifu", json={"op": "deal", "token": "t", "version": snap["version"], "seed": 1}, headers=h)
    snap = client.get("/scribe/api/f.paifu").get_json()
    before = (tmp_path / "f.paifu").read_bytes()
    body = {"op": op, "token": "t", "version": snap["version"], field: value, "index": 0}
    if op == "annotate":
        played = snap["actions"][0]
        client.post("/scribe/api/f.paifu", json={"op": "act", "token": "t", "version": snap["version"], "index": 0,
                                                  "text": played["text"]}, headers=h)
        body["version"] = client.get("/scribe/api/f.paifu").get_json()["version"]
        body["index"] = client.get("/scribe/api/f.paifu").get_json()["line"][-1]["i"]
        before = (tmp_path / "f.paifu").read_bytes()
    r = client.post("/scribe/api/f.paifu", json=body, headers=h)
    assert r.status_code == 400, r.get_data(as_text=True)
    assert said in r.get_json()["error"]
    assert (tmp_path / "f.paifu").read_bytes() == before
    Scribe(tmp_path, "f")  # the file still opens


@pytest.mark.parametrize("form, said", [
    ({"event": "club\nnight"}, "the Event holds a control character (U+000A"),
    ({"event": "e" * 201}, "the Event is at most 200 characters"),
    ({"player0": "Ann\tB"}, "a player's name holds a control character (U+0009"),
    ({"opt-sanma-scoring": "on\x01"}, "an option's value holds a control character (U+0001"),
])
def test_a_new_record_with_a_bad_field_is_refused_with_its_message(tmp_path: Path, form: dict, said: str) -> None:
    from urllib.parse import parse_qs, urlsplit

    client, csrf = _client(tmp_path)
    r = client.post("/scribe/new", data={"csrf": csrf, "name": "n", "game": "sanma", **form})
    assert r.status_code == 302
    assert said in parse_qs(urlsplit(r.headers["Location"]).query)["error"][0]
    assert not (tmp_path / "n.paifu").exists()


def test_malformed_or_oversized_bodies_get_400_or_413_with_a_message(tmp_path: Path) -> None:
    # the issue: 'written' as a list or a string, or JSON nested 100,000 deep, gave a 500 (its
    # page titled "not found"); a 400 MB body was parsed
    client, _, h = _opened(tmp_path)
    before = (tmp_path / "f.paifu").read_bytes()
    version = client.get("/scribe/api/f.paifu").get_json()["version"]
    for written in ([1, 2], "A 3", {"A": "x"}, {"A": True}):
        r = client.post("/scribe/api/f.paifu", json={"op": "score", "token": "t", "version": version, "written": written}, headers=h)
        assert r.status_code == 400 and r.get_json()["error"].startswith("bad request: written"), written
    for bad in ({"op": "undo", "token": "t", "steps": "2"}, {"op": "act", "token": "t", "index": 0, "path": [[1, 2, 3]]},
                {"op": "open", "token": ["t"]}):
        r = client.post("/scribe/api/f.paifu", json=bad, headers=h)
        assert r.status_code == 400 and r.get_json()["error"].startswith("bad request: "), bad
    deep = "[" * 100_000 + "]" * 100_000
    for data in (deep, '{"op": "finish"', "[1, 2]", ""):
        r = client.post("/scribe/api/f.paifu", data=data, headers={**h, "Content-Type": "application/json"})
        assert r.status_code == 400 and r.get_json()["error"].startswith("a JSON object is expected"), data[:20]
    huge = '{"op": "finish", "token": "t", "result": "' + "x" * (2 * 1024 * 1024) + '"}'
    r = client.post("/scribe/api/f.paifu", data=huge, headers={**h, "Content-Type": "application/json"})
    assert r.status_code == 413 and "larger than 1024 KB" in r.get_json()["error"]
    r = client.post("/scribe/new", data={"csrf": "x", "name": "big", "game": "bigtwo", "event": "e" * (2 * 1024 * 1024)})
    assert r.status_code == 413 and "<title>too large" in r.get_data(as_text=True) and "larger than 1024 KB" in r.get_data(as_text=True)
    assert (tmp_path / "f.paifu").read_bytes() == before and not (tmp_path / "big.paifu").exists()


def test_a_save_that_would_not_read_back_is_refused_and_the_file_unchanged(tmp_path: Path, monkeypatch) -> None:
    # the last guard: should a field check miss something, the text is read back before it
    # replaces the file
    from paifu.viewer import scribe_session

    create(tmp_path, "r", "bigtwo")
    before = (tmp_path / "r.paifu").read_bytes()
    monkeypatch.setattr(scribe_session, "checked_field", lambda value, what, lines=False: value)
    from paifu.notation.model import Tag

    for value in ("club\nnight", 'x\n[Game "sanma"]'):
        s = Scribe(tmp_path, "r")
        s.record.tags.insert(1, Tag(name="Event", value=value))  # as a field check that missed it would
        with pytest.raises(ScribeError, match="would not read back .*the file is unchanged"):
            s.deal(s.version, seed=1)
        assert (tmp_path / "r.paifu").read_bytes() == before
    with pytest.raises(ScribeError, match="would not read back"):
        create(tmp_path, "q", "bigtwo", event="a\nb")
    assert not (tmp_path / "q.paifu").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.paifu"]  # no temporary file left over


def test_saves_keep_the_files_mode_and_new_records_get_the_umasks(tmp_path: Path) -> None:
    # the issue: every save left the file 0600 (a temporary file's mode), a rewritten 0644 too
    import os
    import stat

    def mode(p: Path) -> int:
        return stat.S_IMODE(p.stat().st_mode)

    old = os.umask(0o027)
    try:
        path = create(tmp_path, "m", "bigtwo")
        assert mode(path) == 0o640  # 0666 less the umask, as any file the user creates
        os.chmod(path, 0o644)
        s = Scribe(tmp_path, "m")
        s.deal(s.version, seed=2)
        assert mode(path) == 0o644  # a rewritten file keeps its mode
        os.chmod(path, 0o664)
        s = Scribe(tmp_path, "m")
        s.finish(s.version, "")
        assert mode(path) == 0o664
        os.umask(0o022)
        assert mode(create(tmp_path, "n", "sanma")) == 0o644
    finally:
        os.umask(old)


# -- the Finish box: the result proposed from the totals, only what validates accepted --------
def _scored_hand(folder: Path, name: str, game: str, seed: int, **kw) -> Scribe:
    create(folder, name, game, **kw)
    s = Scribe(folder, name)
    s.deal(s.version, seed=seed)
    _play_out(folder, name)
    s = Scribe(folder, name)
    s.score(s.version, [])
    return Scribe(folder, name)


def test_finish_proposes_the_result_the_totals_give_and_refuses_any_other(tmp_path: Path) -> None:
    # the issue: the box's placeholder 'A wins' gave R212, and so did any free text. Big Two's
    # match has no end of its own: the highest running total wins (docs/rulings.md)
    s = _scored_hand(tmp_path, "g", "bigtwo", 5, players=["Ann", "Bo", "Cy", "Di"])
    totals_line = next(line for line in s.text.splitlines() if line.startswith("total "))
    words = totals_line.split()[1:]
    totals = {words[i]: int(words[i + 1]) for i in range(0, len(words), 2)}
    best = max(totals.values())
    winners = [seat for seat, t in totals.items() if t == best]
    finish = s.snapshot([])["finish"]
    assert finish == {"result": " ".join(winners), "how": "the highest total"}
    loser = next(seat for seat in totals if seat not in winners)
    before = (tmp_path / "g.paifu").read_bytes()
    for wrong in ("A wins", loser, f"{winners[0]} 100"):
        with pytest.raises(ScribeError, match=rf"^R212 Result .*; the totals give '{' '.join(winners)}' \(the highest total\)$"):
            s.finish(s.version, wrong)
        assert (tmp_path / "g.paifu").read_bytes() == before
    names = dict(zip("ABCD", ["Ann", "Bo", "Cy", "Di"]))
    s.finish(s.version, " ".join(names[w] for w in winners))  # the same outcome by the players' names
    assert f'[Result "{" ".join(names[w] for w in winners)}"]' in (tmp_path / "g.paifu").read_text(encoding="utf-8")
    s = Scribe(tmp_path, "g")
    s.finish(s.version, finish["result"])
    _valid(tmp_path / "g.paifu")


def test_finish_before_the_match_is_over_writes_no_result(tmp_path: Path) -> None:
    # 99 is played over 9 hands (option hands, a multiple of 9): after one, the outcome is not known
    s = _scored_hand(tmp_path, "n", "ninetynine", 3)
    finish = s.snapshot([])["finish"]
    assert finish["result"] == "" and finish["how"].startswith("the match is not over after hand 1")
    with pytest.raises(ScribeError, match="^R212 Result names A, but the match is not over after hand 1"):
        s.finish(s.version, "A")
    s.finish(s.version, "")
    text = (tmp_path / "n.paifu").read_text(encoding="utf-8")
    assert "[Result" not in text
    _valid(tmp_path / "n.paifu")
