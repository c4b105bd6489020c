//! `convert --format parquet`: the tables read back with the parquet crate's Arrow reader
//! and compared with `convert --format csv` (per game and `--per-move`) and `lint --format
//! jsonl` of the same input; partitions, standard input, the same bytes every run, and
//! `schemas/parquet.json` against the files.
#![cfg(feature = "parquet")]

use arrow_array::cast::AsArray;
use arrow_array::types::{Date32Type, Float64Type, Int8Type, Int32Type, Int64Type};
use arrow_array::{Array, RecordBatch};
use arrow_schema::{DataType, Schema};
use assert_cmd::Command;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

mod common;

fn pdnkit() -> Command {
    assert_cmd::cargo::cargo_bin_cmd!("pdnkit")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A value of a cell, as text comparable with the CSV's (`None`: null).
type Cell = Option<String>;

/// A table read back: its columns' names, and each row's cells by column.
struct Table {
    schema: Schema,
    rows: Vec<HashMap<String, Cell>>,
    /// The key-value metadata of each file.
    metadata: Vec<HashMap<String, String>>,
}

impl Table {
    fn column(&self, name: &str) -> Vec<Cell> {
        self.rows.iter().map(|r| r[name].clone()).collect()
    }
}

/// The cell `i` of `array`, as text: lists joined by spaces, maps as `k=v` lines, dates
/// as ISO 8601.
fn cell(array: &dyn Array, i: usize) -> Cell {
    if array.is_null(i) {
        return None;
    }
    Some(match array.data_type() {
        DataType::Int64 => array.as_primitive::<Int64Type>().value(i).to_string(),
        DataType::Int32 => array.as_primitive::<Int32Type>().value(i).to_string(),
        DataType::Int8 => array.as_primitive::<Int8Type>().value(i).to_string(),
        DataType::Float64 => array.as_primitive::<Float64Type>().value(i).to_string(),
        DataType::Boolean => array.as_boolean().value(i).to_string(),
        DataType::Utf8 => array.as_string::<i32>().value(i).to_string(),
        DataType::Date32 => {
            let days = array.as_primitive::<Date32Type>().value(i);
            let date = time::Date::from_julian_day(days + 2_440_588).unwrap();
            format!(
                "{:04}-{:02}-{:02}",
                date.year(),
                u8::from(date.month()),
                date.day()
            )
        }
        DataType::List(_) => {
            let list = array.as_list::<i32>().value(i);
            let items: Vec<String> = (0..list.len())
                .map(|k| cell(list.as_ref(), k).unwrap())
                .collect();
            items.join(" ")
        }
        DataType::Map(..) => {
            let entries = array.as_map().value(i);
            let (keys, values) = (entries.column(0), entries.column(1));
            let items: Vec<String> = (0..entries.len())
                .map(|k| {
                    let v = cell(values.as_ref(), k).unwrap_or_default();
                    format!("{}={v}", cell(keys.as_ref(), k).unwrap())
                })
                .collect();
            items.join("\n")
        }
        other => panic!("a type the tables do not have: {other}"),
    })
}

/// The Parquet files of table `name` in the dataset `dir` (its file, or every file under
/// its folder, in the order of their paths).
fn files(dir: &Path, name: &str) -> Vec<PathBuf> {
    let single = dir.join(format!("{name}.parquet"));
    if single.exists() {
        return vec![single];
    }
    let mut found: Vec<PathBuf> = walkdir::WalkDir::new(dir.join(name))
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no file of {name} in {}", dir.display());
    found
}

/// Reads `files` (of one table) with the Arrow reader.
fn read_files(files: &[PathBuf]) -> Table {
    let mut table = Table {
        schema: Schema::empty(),
        rows: Vec::new(),
        metadata: Vec::new(),
    };
    for path in files {
        let file = std::fs::File::open(path).unwrap();
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
        let kv = (builder.metadata().file_metadata().key_value_metadata())
            .map(|kv| {
                kv.iter()
                    .map(|e| (e.key.clone(), e.value.clone().unwrap_or_default()))
                    .collect()
            })
            .unwrap_or_default();
        table.metadata.push(kv);
        table.schema = builder.schema().as_ref().clone();
        for batch in builder.build().unwrap() {
            let batch: RecordBatch = batch.unwrap();
            for i in 0..batch.num_rows() {
                let row = (batch.schema().fields().iter())
                    .zip(batch.columns())
                    .map(|(f, c)| (f.name().clone(), cell(c.as_ref(), i)))
                    .collect();
                table.rows.push(row);
            }
        }
    }
    table
}

fn read(dir: &Path, name: &str) -> Table {
    read_files(&files(dir, name))
}

/// The CSV `text` as rows of named fields (an empty field is `None`).
fn csv_rows(text: &[u8]) -> Vec<HashMap<String, Cell>> {
    let mut reader = csv::Reader::from_reader(text);
    let header = reader.headers().unwrap().clone();
    (reader.records())
        .map(|r| {
            let r = r.unwrap();
            (header.iter())
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), (!v.is_empty()).then(|| v.to_string())))
                .collect()
        })
        .collect()
}

/// `convert ARGS` to standard output.
fn convert(args: &[&str]) -> Vec<u8> {
    let out = pdnkit().arg("convert").args(args).output().unwrap();
    assert!(out.status.code().is_some_and(|c| c < 2), "{out:?}");
    out.stdout
}

/// `convert INPUTS --format parquet EXTRA -o DIR`.
fn dataset(inputs: &[&str], extra: &[&str], dir: &Path) {
    let out = (pdnkit().args(["convert", "--format", "parquet", "-q"]))
        .args(inputs)
        .args(extra)
        .arg("-o")
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.code().is_some_and(|c| c < 2), "{out:?}");
}

/// Every table of the dataset `dir` against the CSV and JSON Lines exports of `inputs`;
/// the number of games compared.
fn compare_with_csv(inputs: &[&str], dir: &Path) -> usize {
    let games = read(dir, "games");
    let moves = read(dir, "moves");
    let diagnostics = read(dir, "diagnostics");
    let positions = read(dir, "positions");
    let mut args = inputs.to_vec();
    args.extend(["--format", "csv"]);
    let csv_games = csv_rows(&convert(&args));
    args.push("--per-move");
    let csv_moves = csv_rows(&convert(&args));

    // games: a row per game, in the same order, the same values
    assert_eq!(games.rows.len(), csv_games.len(), "games");
    let mut ids = HashMap::new();
    for (n, (row, csv)) in games.rows.iter().zip(&csv_games).enumerate() {
        let id = row["game_id"].clone().unwrap();
        assert_eq!(id, (n + 1).to_string());
        ids.insert((csv["path"].clone(), csv["game"].clone()), id);
        let same = [
            "path",
            "game",
            "event",
            "site",
            "date_raw",
            "round",
            "white",
            "black",
            "result",
            "score",
            "gametype",
            "variant",
            "plies",
            "final_fen",
            "status",
            "draw_basis",
        ];
        for column in same {
            // (a CSV cell is empty for an empty value and for none)
            let ours = row[column].clone().filter(|v| !v.is_empty());
            assert_eq!(ours, csv[column], "game {n}: {column}");
        }
        // a DATE where the CSV's date is one day
        let day = (csv["date"].as_ref()).filter(|d| d.len() == 10 && !d.contains('/'));
        assert_eq!(row["date"].as_ref(), day, "game {n}: date");
        let first_error = match (&row["first_error"], &row["first_error_ply"]) {
            (Some(code), Some(ply)) => Some(format!("{code}@{ply}")),
            (code, _) => code.clone(),
        };
        assert_eq!(first_error, csv["first_error"], "game {n}: first_error");
        if row["status"].as_deref() == Some("ok") {
            let moves = csv["moves"].clone().unwrap_or_default();
            let first: Vec<&str> = moves
                .split(' ')
                .filter(|m| !m.is_empty())
                .take(20)
                .collect();
            assert_eq!(row["first_moves"], Some(first.join(" ")), "game {n}");
        }
        if row["status"].as_deref() != Some("skipped") {
            let tags = row["tags"].clone().unwrap_or_default();
            for (column, tag) in [("event", "Event"), ("white", "White")] {
                if let Some(v) = &row[column] {
                    assert!(tags.contains(&format!("{tag}={v}")), "game {n}: {tags}");
                }
            }
        }
    }

    // moves: a row per ply of the CSV's, joined by game_id
    assert_eq!(moves.rows.len(), csv_moves.len(), "moves");
    for (n, (row, csv)) in moves.rows.iter().zip(&csv_moves).enumerate() {
        let id = &ids[&(csv["path"].clone(), csv["game"].clone())];
        assert_eq!(row["game_id"].as_ref(), Some(id), "move {n}");
        for column in [
            "ply",
            "move_number",
            "side",
            "written",
            "move",
            "from",
            "to",
            "promotes",
        ] {
            assert_eq!(row[column], csv[column], "move {n}: {column}");
        }
        assert_eq!(
            row["captured"].clone().filter(|c| !c.is_empty()),
            csv["captured"],
            "move {n}"
        );
        let captures = csv["captures"].as_deref().unwrap_or("0");
        assert_eq!(row["capture"].as_deref() == Some("true"), captures != "0");
    }

    // positions: the start and the position after each ply of the CSV
    let mut after: BTreeMap<(String, i64), String> = BTreeMap::new();
    for (row, csv) in moves.rows.iter().zip(&csv_moves) {
        let key = (
            row["game_id"].clone().unwrap(),
            row["ply"].as_ref().unwrap().parse().unwrap(),
        );
        after.insert(key, csv["fen_after"].clone().unwrap());
    }
    let mut starts = 0;
    for row in &positions.rows {
        let id = row["game_id"].clone().unwrap();
        let ply: i64 = row["ply"].as_ref().unwrap().parse().unwrap();
        if ply == 0 {
            starts += 1;
            let game = &games.rows[id.parse::<usize>().unwrap() - 1];
            assert_eq!(row["fen"], game["start_fen"]);
        } else {
            assert_eq!(row["fen"].as_ref(), after.get(&(id, ply)));
        }
        let fen = row["fen"].clone().unwrap();
        let side = if fen.starts_with('W') {
            "white"
        } else {
            "black"
        };
        assert_eq!(row["side_to_move"].as_deref(), Some(side));
    }
    let with_start = games.rows.iter().filter(|g| g["start_fen"].is_some());
    assert_eq!(starts, with_start.count());
    assert_eq!(positions.rows.len(), starts + moves.rows.len());

    // diagnostics: lint's findings, with the game they belong to
    let mut args = inputs.to_vec();
    args.extend([
        "--format",
        "jsonl",
        "--severity",
        "info",
        "--exit-zero",
        "-q",
    ]);
    let lint = pdnkit().arg("lint").args(&args).output().unwrap();
    let lint: Vec<serde_json::Value> = String::from_utf8(lint.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let key = |path: Cell, game: Cell, line: Cell, column: Cell, code: Cell| {
        format!("{path:?} {game:?} {line:?}:{column:?} {code:?}")
    };
    let mut ours: Vec<String> = (diagnostics.rows.iter())
        .map(|r| {
            let k = key(
                r["path"].clone(),
                r["game"].clone(),
                r["line"].clone(),
                r["column"].clone(),
                r["code"].clone(),
            );
            if let (Some(id), Some(game)) = (&r["game_id"], &r["game"]) {
                let g = &games.rows[id.parse::<usize>().unwrap() - 1];
                assert_eq!(g["game"].as_ref(), Some(game), "{k}");
                assert_eq!(g["path"], r["path"], "{k}");
            }
            k
        })
        .collect();
    let text = |v: &serde_json::Value| match v {
        serde_json::Value::Null => None,
        serde_json::Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    };
    let mut theirs: Vec<String> = (lint.iter())
        .filter(|d| d.get("code").is_some())
        .map(|d| {
            key(
                text(&d["path"]),
                text(&d["game"]),
                text(&d["line"]),
                text(&d["column"]),
                text(&d["code"]),
            )
        })
        .collect();
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs, "diagnostics");
    games.rows.len()
}

/// The Arrow types of `schemas/parquet.json` (DuckDB's names).
fn sql_type(t: &DataType) -> String {
    match t {
        DataType::Int64 => "BIGINT".into(),
        DataType::Int32 => "INTEGER".into(),
        DataType::Int8 => "TINYINT".into(),
        DataType::Float64 => "DOUBLE".into(),
        DataType::Boolean => "BOOLEAN".into(),
        DataType::Utf8 => "VARCHAR".into(),
        DataType::Date32 => "DATE".into(),
        DataType::List(f) => format!("{}[]", sql_type(f.data_type())),
        DataType::Map(f, _) => match f.data_type() {
            DataType::Struct(kv) => format!(
                "MAP({}, {})",
                sql_type(kv[0].data_type()),
                sql_type(kv[1].data_type())
            ),
            other => panic!("{other}"),
        },
        other => panic!("a type the tables do not have: {other}"),
    }
}

/// The name of the folder a partition's file is in (`year=1950`).
fn partition_folder_of(path: &Path) -> &str {
    path.parent()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .unwrap()
}

#[test]
fn fixtures_match_the_csv_export() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ds");
    let fixtures = root().join("fixtures");
    let input = fixtures.to_str().unwrap();
    dataset(&[input], &["--positions"], &out);
    let games = compare_with_csv(&[input], &out);
    assert!(games > 40, "{games}");
}

#[test]
fn corpus_matches_the_csv_export() {
    let corpus = root().join("../shared/corpus");
    if !corpus.is_dir() {
        eprintln!(
            "note: {} is absent; the corpus is not converted to Parquet",
            corpus.display()
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ds");
    let input = corpus.to_str().unwrap();
    dataset(&[input], &["--positions"], &out);
    let games = compare_with_csv(&[input], &out);
    eprintln!("corpus: {games} games compared");
}

#[test]
fn the_schema_file_is_the_files_schema() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ds");
    dataset(
        &[root().join("fixtures/convert").to_str().unwrap()],
        &["--positions"],
        &out,
    );
    let text = std::fs::read_to_string(root().join("schemas/parquet.json")).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    let version = schema["version"].as_str().unwrap();
    let tables = schema["tables"].as_object().unwrap();
    assert_eq!(tables.len(), 4);
    let doc = std::fs::read_to_string(root().join("docs/parquet.md")).unwrap();
    for (name, columns) in tables {
        let table = read(&out, name);
        for kv in &table.metadata {
            assert_eq!(kv["pdnkit.schema"], version, "{name}");
            assert_eq!(&kv["pdnkit.table"], name);
        }
        let ours: Vec<(String, String, bool)> = (table.schema.fields().iter())
            .map(|f| (f.name().clone(), sql_type(f.data_type()), f.is_nullable()))
            .collect();
        let documented: Vec<(String, String, bool)> = (columns.as_array().unwrap().iter())
            .map(|c| {
                (
                    c["name"].as_str().unwrap().to_string(),
                    c["type"].as_str().unwrap().to_string(),
                    c["nullable"].as_bool().unwrap(),
                )
            })
            .collect();
        assert_eq!(ours, documented, "{name}");
        // and docs/parquet.md has a row for each column, with its type
        for (column, sql, _) in &documented {
            let row = format!("| `{column}` | {sql} |");
            assert!(doc.contains(&row), "docs/parquet.md lacks {row} ({name})");
        }
    }
}

#[test]
fn partitions_hold_the_rows_of_their_value() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = root().join("fixtures");
    let input = fixtures.to_str().unwrap();
    let whole = dir.path().join("whole");
    dataset(&[input], &["--positions"], &whole);
    let sorted = |t: &Table| {
        let mut rows: Vec<String> = t
            .rows
            .iter()
            .map(|r| format!("{:?}", sorted_row(r)))
            .collect();
        rows.sort();
        rows
    };
    for key in ["year", "event", "gametype"] {
        let out = dir.path().join(key);
        dataset(&[input], &["--positions", "--partition-by", key], &out);
        for table in ["games", "moves", "diagnostics", "positions"] {
            // the partitions together hold every row
            assert_eq!(
                sorted(&read(&out, table)),
                sorted(&read(&whole, table)),
                "{key}: {table}"
            );
            assert!(!out.join(format!("{table}.parquet")).exists());
        }
        // each game is in the folder of its value
        let games = read(&whole, "games");
        for path in files(&out, "games") {
            let folder = partition_folder_of(&path);
            let value = folder.strip_prefix(&format!("{key}=")).unwrap();
            for row in read_files(std::slice::from_ref(&path)).rows {
                let game =
                    &games.rows[row["game_id"].as_ref().unwrap().parse::<usize>().unwrap() - 1];
                let expected = match key {
                    "year" => game["date_raw"].as_ref().and_then(|d| {
                        // (the fixtures' dates put the year first or last)
                        let digits: Vec<&str> = d
                            .split(|c: char| !c.is_ascii_digit())
                            .filter(|p| p.len() == 4)
                            .collect();
                        digits.first().map(|y| y.to_string())
                    }),
                    "event" => game["event"].clone(),
                    _ => game["gametype"].clone(),
                };
                match expected.filter(|v| !v.is_empty()) {
                    Some(v) if key != "event" => assert_eq!(value, v, "{}", path.display()),
                    Some(v) => assert_eq!(unescape(value), v, "{}", path.display()),
                    None if key == "year" => {}
                    None => assert_eq!(value, "__HIVE_DEFAULT_PARTITION__"),
                }
            }
        }
    }
}

/// A row's cells in the order of their names, the partition-independent ones.
fn sorted_row(row: &HashMap<String, Cell>) -> BTreeMap<String, Cell> {
    row.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
}

/// A folder's value as Hive escapes it (`%2F`), back to the text.
fn unescape(value: &str) -> String {
    let bytes = value.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 3 <= bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap();
            out.push(u8::from_str_radix(hex, 16).unwrap());
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

#[test]
fn standard_input_gives_the_tables_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = root().join("fixtures/convert/rich.pdn");
    let from_file = dir.path().join("file");
    dataset(&[file.to_str().unwrap()], &[], &from_file);
    let from_stdin = dir.path().join("stdin");
    (pdnkit().args(["convert", "--format", "parquet", "-q", "-o"]))
        .arg(&from_stdin)
        .write_stdin(std::fs::read(&file).unwrap())
        .assert()
        .code(1); // (the file has an illegal game)
    for table in ["games", "moves", "diagnostics"] {
        let a = read(&from_file, table);
        let b = read(&from_stdin, table);
        assert_eq!(a.rows.len(), b.rows.len(), "{table}");
        for (x, y) in a.rows.iter().zip(&b.rows) {
            for (column, v) in x {
                match column.as_str() {
                    "path" => assert_eq!(y[column].as_deref(), Some("-")),
                    _ => assert_eq!(&y[column], v, "{table}.{column}"),
                }
            }
        }
    }
    assert!(read(&from_stdin, "games").rows.len() >= 5);
}

#[test]
fn the_same_input_gives_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let fixtures = root().join("fixtures");
    let input = fixtures.to_str().unwrap();
    let contents = |d: &Path| -> Vec<(PathBuf, Vec<u8>)> {
        let mut all: Vec<_> = walkdir::WalkDir::new(d)
            .into_iter()
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                let p = e.path().strip_prefix(d).unwrap().to_path_buf();
                (p, std::fs::read(e.path()).unwrap())
            })
            .collect();
        all.sort();
        all
    };
    for extra in [&["--positions"][..], &["--partition-by", "event"][..]] {
        let mut runs = Vec::new();
        for j in ["-j1", "-j2", "-j2"] {
            let out = dir.path().join(format!("run{}", runs.len()));
            let mut args = extra.to_vec();
            args.push(j);
            dataset(&[input], &args, &out);
            runs.push(contents(&out));
        }
        assert!(!runs[0].is_empty());
        assert!(runs.iter().all(|r| r == &runs[0]), "{extra:?}");
    }
}

#[test]
fn a_game_with_errors_has_its_status_its_moves_as_far_as_they_replay_and_its_findings() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = dir.path().join("errors.pdn");
    let mut text = String::from(
        "[Event \"e\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\
         1. c3-d4 f6-g5 2. b2-c3 g5-h4 3. c3-b4 h4-g3 1-0\n\n",
    );
    // (a game too large to read is skipped, with a row of its own)
    text.push_str(&common::game_too_large_to_read());
    text.push_str("[Event \"after\"]\n1. c3-d4 *\n");
    std::fs::write(&pdn, text).unwrap();
    let out = dir.path().join("ds");
    (pdnkit().args(["convert", "--format", "parquet", "-q"]))
        .arg(&pdn)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(1);
    let games = read(&out, "games");
    assert_eq!(games.rows.len(), 3);
    let g = &games.rows[0];
    assert_eq!(g["status"].as_deref(), Some("illegal"));
    assert_eq!(g["first_error"].as_deref(), Some("M101"));
    assert_eq!(g["first_error_ply"].as_deref(), Some("6"));
    assert_eq!(g["plies"].as_deref(), Some("5"));
    assert_eq!(g["score"].as_deref(), Some("1"));
    let skipped = &games.rows[1];
    assert_eq!(skipped["status"].as_deref(), Some("skipped"));
    assert_eq!(skipped["first_error"].as_deref(), Some("P107"));
    assert_eq!(skipped["tags"], None);
    assert_eq!(games.rows[2]["event"].as_deref(), Some("after"));
    let moves = read(&out, "moves");
    let of_first = moves
        .rows
        .iter()
        .filter(|m| m["game_id"].as_deref() == Some("1"));
    assert_eq!(of_first.count(), 5);
    let diagnostics = read(&out, "diagnostics");
    let codes: Vec<(Cell, Cell)> = (diagnostics.rows.iter())
        .map(|d| (d["game_id"].clone(), d["code"].clone()))
        .collect();
    assert!(
        codes.contains(&(Some("1".into()), Some("M101".into()))),
        "{codes:?}"
    );
    assert!(
        codes.contains(&(Some("2".into()), Some("P107".into()))),
        "{codes:?}"
    );
    let illegal = diagnostics
        .rows
        .iter()
        .find(|d| d["code"].as_deref() == Some("M101"));
    let illegal = illegal.unwrap();
    assert_eq!(illegal["ply"].as_deref(), Some("6"));
    assert_eq!(illegal["move"].as_deref(), Some("h4-g3"));
    assert_eq!(illegal["severity"].as_deref(), Some("error"));
    assert_eq!(
        diagnostics.column("path")[0].as_deref(),
        Some(pdn.to_str().unwrap())
    );
}

#[test]
fn a_folder_holding_more_than_a_dataset_is_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ds");
    std::fs::create_dir(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    (pdnkit().args(["convert", "--format", "parquet", "-q"]))
        .arg(root().join("fixtures/convert/rich.pdn"))
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2);
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "mine"
    );
    // a dataset is replaced by the next
    let ds = dir.path().join("ds2");
    for _ in 0..2 {
        dataset(
            &[root().join("fixtures/convert/rich.pdn").to_str().unwrap()],
            &[],
            &ds,
        );
    }
    assert_eq!(read(&ds, "games").rows.len(), 5);
    // and without -o there is nowhere to write
    (pdnkit().args(["convert", "--format", "parquet"]))
        .arg(root().join("fixtures/convert/rich.pdn"))
        .assert()
        .code(2);
}

#[test]
fn values_that_share_a_folder_share_no_file() {
    // events that differ only in case (one folder on a file system that ignores case),
    // and two whose names are cut to the same folder name
    let dir = tempfile::tempdir().unwrap();
    let long = "я".repeat(200);
    let events = [
        "Cup".to_string(),
        "cup".to_string(),
        format!("{long}1"),
        format!("{long}2"),
        "Cup".to_string(),
    ];
    let pdn: String = (events.iter())
        .map(|e| format!("[Event \"{e}\"]\n1. c3-d4 f6-g5 *\n\n"))
        .collect();
    let input = dir.path().join("events.pdn");
    std::fs::write(&input, pdn).unwrap();
    let out = dir.path().join("ds");
    dataset(
        &[input.to_str().unwrap()],
        &["--partition-by", "event"],
        &out,
    );
    let games = read(&out, "games");
    let mut got: Vec<String> = games.column("event").into_iter().flatten().collect();
    got.sort();
    let mut want = events.to_vec();
    want.sort();
    assert_eq!(got, want);
    assert_eq!(read(&out, "moves").rows.len(), 2 * events.len());
    let folders: Vec<PathBuf> = files(&out, "games")
        .iter()
        .map(|p| p.parent().unwrap().to_path_buf())
        .collect();
    // (the two long names share a folder, in two parts)
    assert_eq!(folders.len(), 4, "{folders:?}");
}

#[test]
fn many_partitions_interleaved_lose_no_row() {
    // 300 events, game after game in turn: more than the files a table keeps open and
    // than its budget holds in parts, so that parts are closed and reopened as next parts
    let dir = tempfile::tempdir().unwrap();
    let mut generator = pdnkit_gen::Generator::new(47);
    let mut pdn = String::new();
    for i in 0..1500 {
        let game = generator.next_game();
        let body = game.split_once("\n\n").map_or(game.as_str(), |(_, b)| b);
        pdn.push_str(&format!("[Event \"E{}\"]\n\n{body}\n", i % 300));
    }
    let input = dir.path().join("many.pdn");
    std::fs::write(&input, pdn).unwrap();
    let input = input.to_str().unwrap();
    let whole = dir.path().join("whole");
    dataset(&[input], &[], &whole);
    let parts = dir.path().join("parts");
    dataset(&[input], &["--partition-by", "event"], &parts);
    for table in ["games", "moves"] {
        let mut a: Vec<String> = (read(&whole, table).rows.iter())
            .map(|r| format!("{:?}", sorted_row(r)))
            .collect();
        let mut b: Vec<String> = (read(&parts, table).rows.iter())
            .map(|r| format!("{:?}", sorted_row(r)))
            .collect();
        a.sort();
        b.sort();
        assert_eq!(a.len(), b.len(), "{table}");
        assert!(a == b, "{table}");
    }
    let games = read(&whole, "games");
    assert_eq!(games.rows.len(), 1500);
    for path in files(&parts, "games") {
        let folder = partition_folder_of(&path);
        for row in read_files(std::slice::from_ref(&path)).rows {
            assert_eq!(
                Some(folder),
                row["event"]
                    .as_ref()
                    .map(|e| format!("event={e}"))
                    .as_deref()
            );
        }
    }
    assert!(files(&parts, "games").len() >= 300);
}

#[test]
fn tables_held_in_memory_are_the_files_rows() {
    use pdnkit::convert::parquet::{Dataset, ParquetOptions};
    use pdnkit::convert::{Converter, Format};
    use pdnkit::rules::notation::{CaptureStyle, Style};
    use pdnkit::run::{Discovery, Event, RunOptions};

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ds");
    let fixtures = root().join("fixtures");
    let input = fixtures.to_str().unwrap();
    dataset(&[input], &["--positions"], &out);

    let options = ParquetOptions {
        positions: true,
        partition_by: None,
    };
    let style = Style {
        captures: CaptureStyle::Minimal,
        ..Style::default()
    };
    let (inputs, errors) =
        pdnkit::run::expand(std::slice::from_ref(&fixtures), &Discovery::default());
    assert!(errors.is_empty());
    let labels: Vec<String> = inputs.iter().map(|i| i.label()).collect();
    let mut next = labels.iter();
    let mut memory = Dataset::in_memory(options, style);
    let converter = Converter::new(Format::Parquet(options), style);
    let run = RunOptions {
        threads: 2,
        ..RunOptions::default()
    };
    pdnkit::run::run(&inputs, &run, &converter, |event| match event {
        Event::Start => {
            memory.start_input(next.next().unwrap());
            Ok(())
        }
        Event::Game(game) => memory.game(&game),
        Event::Problem(d) => memory.problem(&d),
        Event::End(_) => Ok(()),
    })
    .unwrap();
    let tables = memory.into_batches().unwrap();
    assert_eq!(tables.len(), 4);
    for (table, batches) in tables {
        let files = read(&out, table.name());
        assert_eq!(
            table.schema().fields(),
            files.schema.fields(),
            "{}",
            table.name()
        );
        let rows: Vec<HashMap<String, Cell>> = (batches.iter())
            .flat_map(|batch| {
                (0..batch.num_rows()).map(move |i| {
                    (batch.schema().fields().iter())
                        .zip(batch.columns())
                        .map(|(f, c)| (f.name().clone(), cell(c.as_ref(), i)))
                        .collect()
                })
            })
            .collect();
        assert!(!rows.is_empty(), "{}", table.name());
        assert_eq!(rows, files.rows, "{}", table.name());
    }
}
