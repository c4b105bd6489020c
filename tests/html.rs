//! The pages (`lint --format html`, `show --format html`, `stats --format html` and
//! `--format svg`) through the real binary: what they hold, that text from a file is
//! escaped, and that a report of very many findings stays small. `tests/browser.rs`
//! opens them in a browser.

use assert_cmd::Command;
use std::path::Path;

fn pdnkit() -> Command {
    assert_cmd::cargo::cargo_bin_cmd!("pdnkit")
}

/// The standard output of `pdnkit args`, whatever its exit status.
fn output(args: &[&str]) -> String {
    let out = pdnkit().args(args).output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// What a hostile file tries: to close a script, open one, comment out the page, break
/// out of an attribute.
const HOSTILE: &str = "</script><script>alert(1)</script><!--\"'>";

fn hostile_file(dir: &Path) -> String {
    let text = format!(
        "[Event \"{h}\"]\n[Site \"x\"]\n[Date \"{h}\"]\n[Round \"1\"]\n[White \"{h}\"]\n[Black \"<b>Black</b>\"]\n[Result \"*\"]\n\n\
         1. c3-d4 {{{h}}} f6-g5 2. b2-c3 ({h} 2. e3-f4) g5-h4 3. d4-e6 *\n",
        h = HOSTILE.replace('"', "\\\"")
    );
    let path = dir.join("hostile.pdn");
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// No text of the file got into the page as markup.
fn assert_escaped(page: &str) {
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    assert!(!page.contains("<script>alert"), "a script got in");
    assert!(!page.contains("<b>Black"), "markup got in");
    assert!(!page.contains("<!--"), "a comment got in");
    // (one script of pdnkit's at most, and the positions' JSON)
    assert!(page.matches("<script").count() <= 2);
    assert!(page.matches("</script>").count() <= 2);
}

#[test]
fn text_from_a_file_is_escaped_in_every_page() {
    let dir = tempfile::tempdir().unwrap();
    let file = hostile_file(dir.path());
    let report = output(&["lint", &file, "--format", "html", "--severity", "info"]);
    assert_escaped(&report);
    assert!(report.contains("&lt;/script&gt;&lt;script&gt;alert(1)"));
    let viewer = output(&["show", &file, "--format", "html"]);
    assert_escaped(&viewer);
    // the tags, the comment and the variation's comment are shown, as text
    assert!(
        viewer
            .matches("&lt;/script&gt;&lt;script&gt;alert(1)")
            .count()
            >= 4
    );
    assert!(viewer.contains("&lt;b&gt;Black&lt;/b&gt;"));
    let stats = output(&["stats", &file, "--format", "html", "-q"]);
    assert_escaped(&stats);
    assert!(stats.contains("&lt;b&gt;Black&lt;/b&gt;"));
    let players = output(&[
        "stats", &file, "--format", "svg", "--chart", "players", "-q",
    ]);
    assert!(!players.contains("<b>") && !players.contains("<script"));
}

#[test]
fn the_report_has_a_board_per_position_with_the_moves_as_arrows() {
    let page = output(&["lint", "fixtures/html/errors.pdn", "--format", "html"]);
    // three illegal moves (M101) with a board each; the unreadable move (M106) has none
    assert_eq!(
        page.matches("<li class=\"finding\" data-code=\"M101\"")
            .count(),
        3
    );
    assert_eq!(page.matches("<figure class=\"position\"").count(), 3);
    assert_eq!(page.matches("class=\"written-move\"").count(), 3);
    assert!(page.contains("A capture is mandatory; the legal captures"));
    // the frame of the boards is in the page once
    assert_eq!(page.matches("<symbol id=\"board-frame\"").count(), 1);
    assert!(page.contains("<span id=\"files-read\">1</span>"));
    assert!(page.contains("<span id=\"games-read\">5</span>"));
    // nothing is loaded from elsewhere
    assert_eq!(
        page.matches("http").count(),
        page.matches("http://www.w3.org/2000/svg").count()
    );
    assert!(!page.contains("https://"));
}

#[test]
fn a_report_of_100000_findings_is_bounded() {
    // 34,000 games, each with three findings: roster tags missing, an illegal move (with
    // its board), and a result tag and terminator that disagree
    let dir = tempfile::tempdir().unwrap();
    let game = "[Event \"e\"]\n[Result \"1-0\"]\n\n1. c3-d4 f6-e5 2. b2-c3 e5:c3 0-1\n\n";
    let path = dir.path().join("many.pdn");
    std::fs::write(&path, game.repeat(34_000)).unwrap();
    let page_path = dir.path().join("report.html");
    let out = pdnkit()
        .args(["lint", path.to_str().unwrap(), "--format", "html", "-o"])
        .arg(&page_path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let page = std::fs::read_to_string(&page_path).unwrap();
    let count: usize = page
        .split("<span id=\"findings-count\">")
        .nth(1)
        .and_then(|s| s.split('<').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(count >= 100_000, "{count} findings");
    assert_eq!(page.matches("<li class=\"finding\"").count(), 2_000);
    assert_eq!(page.matches("<figure class=\"position\"").count(), 500);
    assert!(page.contains("more are counted above"));
    // (2,000 findings listed and 500 boards drawn: about 2.3 MB)
    assert!(page.len() < 4_000_000, "{} bytes", page.len());
}

#[test]
fn the_viewer_holds_every_position_of_the_main_line() {
    let file = "fixtures/html/games.pdn";
    let page = output(&[
        "show", file, "--game", "4", "--format", "html", "--ply", "7",
    ]);
    let fens: Vec<String> = (0..=116)
        .map(|k| {
            output(&[
                "show",
                file,
                "--game",
                "4",
                "--format",
                "fen",
                "--ply",
                &k.to_string(),
            ])
        })
        .collect();
    assert!(fens[116].starts_with('W') || fens[116].starts_with('B'));
    let json = page
        .split("<script type=\"application/json\" id=\"positions\">")
        .nth(1)
        .and_then(|s| s.split("</script>").next())
        .unwrap();
    let frames: Vec<serde_json::Value> = serde_json::from_str(json).unwrap();
    assert_eq!(frames.len(), 117);
    for (k, frame) in frames.iter().enumerate() {
        assert_eq!(frame["fen"].as_str().unwrap(), fens[k].trim(), "ply {k}");
    }
    assert!(page.contains("data-opens-at=\"7\""));
    // the comments, the NAG, the strength mark and the variations
    assert!(page.contains("<span class=\"comment\">forced</span>"));
    assert!(page.contains("<span class=\"nag\" title=\"$1\">!</span>"));
    assert!(page.contains(">c7-d6?!</a>"));
    assert!(page.contains("<span class=\"vmv\">b6-a5</span>"));
}

#[test]
fn a_chart_is_a_standalone_svg() {
    let file = "fixtures/html/games.pdn";
    for chart in ["lengths", "results", "openings", "players"] {
        let svg = output(&["stats", file, "--format", "svg", "--chart", chart, "-q"]);
        assert!(
            svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
            "{chart}"
        );
        assert!(svg.contains(&format!("data-chart=\"{chart}\"")));
        assert!(svg.trim_end().ends_with("</svg>"));
    }
    pdnkit()
        .args(["stats", file, "--format", "svg", "-q"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--chart"));
}
