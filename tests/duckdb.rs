//! The README's DuckDB queries, run by DuckDB itself on a dataset of the fixtures and
//! checked against the CSV export (`tests/duckdb/readme_queries.py`). DuckDB is Python's
//! package: `PDNKIT_DUCKDB_PYTHON` names a Python that has it (`.ci/run` makes one in a
//! virtual environment); without it the test says so and passes.
#![cfg(feature = "parquet")]

use assert_cmd::Command;
use std::path::PathBuf;

fn pdnkit() -> Command {
    assert_cmd::cargo::cargo_bin_cmd!("pdnkit")
}

#[test]
fn readme_duckdb_queries_answer_as_the_csv_export() {
    let Some(python) = std::env::var_os("PDNKIT_DUCKDB_PYTHON") else {
        eprintln!(
            "note: PDNKIT_DUCKDB_PYTHON is not set; the README's DuckDB queries are not run \
             (.ci/run sets it to a virtual environment with duckdb)"
        );
        return;
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let fixtures = root.join("fixtures");
    let dir = tempfile::tempdir().unwrap();
    let outputs: [(&[&str], &str); 4] = [
        (&["--format", "parquet"], "dataset"),
        (
            &["--format", "parquet", "--partition-by", "year"],
            "by-year",
        ),
        (&["--format", "csv"], "games.csv"),
        (&["--format", "csv", "--per-move"], "moves.csv"),
    ];
    for (args, out) in outputs {
        let status = (pdnkit().arg("convert").arg(&fixtures).args(args))
            .args(["-q", "-o"])
            .arg(dir.path().join(out))
            .output()
            .unwrap()
            .status;
        // (the fixtures hold unparsed games: exit 1)
        assert!(status.code().is_some_and(|c| c < 2), "{out}: {status}");
    }
    let run = std::process::Command::new(python)
        .arg(root.join("tests/duckdb/readme_queries.py"))
        .arg(root.join("README.md"))
        .current_dir(dir.path())
        .output()
        .expect("PDNKIT_DUCKDB_PYTHON runs");
    let stdout = String::from_utf8_lossy(&run.stdout);
    eprintln!("{stdout}{}", String::from_utf8_lossy(&run.stderr));
    assert!(
        run.status.success(),
        "the README's DuckDB queries:\n{stdout}"
    );
    assert!(stdout.contains("4 of 4 queries right"), "{stdout}");
}
