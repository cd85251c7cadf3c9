//! A device run's results.json (and any carried text kept gzipped, such
//! as an L2 candidate's CUDA C), read plain (as `run.sh` writes it) or
//! gzipped (as `kwb carry report --out` keeps it: a run's candidates carry
//! their whole traces, about 0.5 MB of JSON per run, a tenth of that
//! compressed, and kept runs are tracked files).

use anyhow::{Context, Result};
use serde_json::Value;
use std::io::{Read, Write};
use std::path::Path;

/// The file kept beside report.md by `carry report --out`.
pub const KEPT_NAME: &str = "results.json.gz";

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// A file's text, gunzipped where it is gzipped (told by its first bytes,
/// not its name).
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    if !bytes.starts_with(&GZIP_MAGIC) {
        return String::from_utf8(bytes).with_context(|| format!("{} is neither text nor gzipped text", path.display()));
    }
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes.as_slice())
        .read_to_string(&mut text)
        .with_context(|| format!("{} is gzipped but does not decompress: is the copy complete?", path.display()))?;
    Ok(text)
}

/// `text` gzipped into `path`.
pub fn write_gz_text(path: &Path, text: &str) -> Result<()> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    gz.write_all(text.as_bytes())?;
    std::fs::write(path, gz.finish()?).with_context(|| format!("writing {}", path.display()))
}

/// A results file, gzipped or not.
pub fn read(path: &Path) -> Result<Value> {
    serde_json::from_str(&read_text(path)?).with_context(|| format!("{} is not a results.json from run.sh", path.display()))
}

/// `results` gzipped into `path`.
pub fn write_gz(path: &Path, results: &Value) -> Result<()> {
    write_gz_text(path, &serde_json::to_string(results)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_kept_copy_reads_back_as_the_plain_file_and_a_damaged_one_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let results = json!({"pack": {"device": "h200"}, "tasks": {"relu": {"baseline_ms": 0.25, "candidates": []}}});
        let plain = dir.path().join("results.json");
        std::fs::write(&plain, serde_json::to_string_pretty(&results).unwrap()).unwrap();
        let kept = dir.path().join(KEPT_NAME);
        write_gz(&kept, &results).unwrap();
        assert_eq!(read(&plain).unwrap(), results);
        assert_eq!(read(&kept).unwrap(), results);

        // Cut short in transfer: an error that names the file, not a panic.
        let bytes = std::fs::read(&kept).unwrap();
        std::fs::write(&kept, &bytes[..bytes.len() / 2]).unwrap();
        let err = format!("{:#}", read(&kept).unwrap_err());
        assert!(err.contains("results.json.gz") && err.contains("decompress"), "{err}");
        std::fs::write(&plain, "{ not json").unwrap();
        assert!(format!("{:#}", read(&plain).unwrap_err()).contains("not a results.json"));
    }
}
