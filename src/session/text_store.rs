//! Content addressing of layer texts inside one session log (schema 2).
//!
//! A node records every layer's text, and most of it is the same as its
//! parent's: a 16-candidate model-graph session repeated megabytes of
//! identical TIR and LLVM IR. From schema 2 each distinct text is written
//! once, on a line of its own (`{"blob": hash, "text": ...}`) before the
//! first event that uses it, and an `edit` event's node carries `texts_ref`
//! (the same shape as `texts`, with hashes for strings). A long text is
//! stored deflated, in base64 (`"z"`): generated LLVM IR of a model graph
//! runs to hundreds of kilobytes and differs between nodes in its value
//! names throughout, so storing it once per distinct text is not enough. Lines are still
//! only ever appended, and a text line always precedes its first use, so a
//! log cut anywhere loads up to its last whole event.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as B64;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use crate::ir::LayerTexts;
use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};

/// A line that holds one text: as it is, or deflated.
#[derive(Serialize, Deserialize)]
pub struct TextLine {
    pub blob: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub z: Option<String>,
}

/// Texts shorter than this are kept readable in the log.
const DEFLATE_FROM: usize = 4096;

impl TextLine {
    fn new(blob: String, text: &str) -> Self {
        if text.len() < DEFLATE_FROM {
            return Self { blob, text: Some(text.into()), z: None };
        }
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text.as_bytes()).expect("writing to memory");
        let z = B64.encode(e.finish().expect("writing to memory"));
        Self { blob, text: None, z: Some(z) }
    }

    /// The text, checked against its hash.
    pub fn into_text(self) -> Result<(String, String), String> {
        let text = match (self.text, self.z) {
            (Some(t), _) => t,
            (None, Some(z)) => {
                let bytes = B64.decode(z).map_err(|e| format!("text {}: not base64 ({e})", self.blob))?;
                let mut t = String::new();
                flate2::read::ZlibDecoder::new(&bytes[..]).read_to_string(&mut t).map_err(|e| format!("text {}: cannot inflate ({e})", self.blob))?;
                t
            }
            (None, None) => return Err(format!("text {} holds no text", self.blob)),
        };
        if hash(&text) != self.blob {
            return Err(format!("text {} does not match its hash", self.blob));
        }
        Ok((self.blob, text))
    }
}

/// The prefix every text line starts with (serde writes fields in order).
pub const TEXT_LINE_PREFIX: &[u8] = b"{\"blob\":";
/// The key an `edit` event carries in place of `texts` from schema 2 on.
pub const REF_KEY: &str = "texts_ref";

pub fn hash(text: &str) -> String {
    let d = Sha256::digest(text.as_bytes());
    hex::encode(&d[..12])
}

/// Calls `f` on every string leaf of a `texts` value (strings, and maps of
/// strings: the shape of `LayerTexts`), replacing it with what `f` returns.
fn map_leaves(v: &mut Value, f: &mut dyn FnMut(&str) -> Result<String, String>) -> Result<(), String> {
    match v {
        Value::String(s) => *s = f(s)?,
        Value::Object(m) => {
            for x in m.values_mut() {
                map_leaves(x, f)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The texts this log already holds, for the writer.
#[derive(Default)]
pub struct Written(HashSet<String>);

impl Written {
    /// Replaces a node's `texts` by `texts_ref`; returns the text lines to
    /// write before it (texts this log does not hold yet).
    pub fn dehydrate(&mut self, node: &mut Value) -> Vec<Vec<u8>> {
        let mut lines = Vec::new();
        let Some(node) = node.as_object_mut() else { return lines };
        let Some(mut texts) = node.remove("texts") else { return lines };
        let _ = map_leaves(&mut texts, &mut |t| {
            let h = hash(t);
            if self.0.insert(h.clone()) {
                let mut line = serde_json::to_vec(&TextLine::new(h.clone(), t)).expect("a string serialises");
                line.push(b'\n');
                lines.push(line);
            }
            Ok(h)
        });
        node.insert(REF_KEY.into(), texts);
        lines
    }

    /// Marks texts as already written (a log opened to be continued).
    pub fn remember(&mut self, text: &str) {
        self.0.insert(hash(text));
    }
}

/// The texts read so far, for the loader.
#[derive(Default)]
pub struct Store(HashMap<String, String>);

impl Store {
    pub fn add(&mut self, line: TextLine) -> Result<(), String> {
        let (blob, text) = line.into_text()?;
        self.0.insert(blob, text);
        Ok(())
    }

    /// Puts the texts back in place of the hashes an `edit` event's node
    /// was read with. Errs with the first hash the log does not hold.
    pub fn resolve(&self, texts: &mut LayerTexts) -> Result<(), String> {
        let look = |h: &mut String| -> Result<(), String> {
            *h = self.0.get(h.as_str()).cloned().ok_or_else(|| format!("text {h} is not in the log"))?;
            Ok(())
        };
        look(&mut texts.l0)?;
        look(&mut texts.l1_module)?;
        texts.l1.values_mut().chain(texts.l2.values_mut()).chain(texts.l2_overrides.values_mut()).try_for_each(look)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_text_is_written_once_and_read_back_in_place() {
        let mut w = Written::default();
        let mut a = json!({"type": "edit", "node": {"id": 1, "texts": {"l0": "graph", "l1_module": "mod", "l1": {"k": "mod"}, "l2": {}}}});
        let lines = w.dehydrate(&mut a["node"]);
        assert_eq!(lines.len(), 2, "two distinct texts, one repeated");
        assert!(a["node"].get("texts").is_none());
        assert_eq!(a["node"][REF_KEY]["l1"]["k"], a["node"][REF_KEY]["l1_module"]);
        let mut b = json!({"type": "edit", "node": {"id": 2, "texts": {"l0": "graph", "l1_module": "mod2", "l1": {}, "l2": {}}}});
        assert_eq!(w.dehydrate(&mut b["node"]).len(), 1, "only the new text");

        let mut s = Store::default();
        for l in &lines {
            assert!(l.starts_with(TEXT_LINE_PREFIX));
            s.add(serde_json::from_slice(l).unwrap()).unwrap();
        }
        let mut t: LayerTexts = serde_json::from_value(a["node"][REF_KEY].clone()).unwrap();
        s.resolve(&mut t).unwrap();
        assert_eq!((t.l0.as_str(), t.l1["k"].as_str()), ("graph", "mod"));
        let mut t: LayerTexts = serde_json::from_value(b["node"][REF_KEY].clone()).unwrap();
        let e = s.resolve(&mut t).unwrap_err();
        assert!(e.contains("not in the log"), "{e}");
    }

    #[test]
    fn long_texts_are_deflated_and_checked() {
        let long = "    for i in T.serial(64):\n".repeat(1000);
        let line = TextLine::new(hash(&long), &long);
        assert!(line.text.is_none() && line.z.as_ref().unwrap().len() < long.len() / 10);
        let json = serde_json::to_string(&line).unwrap();
        let back: TextLine = serde_json::from_str(&json).unwrap();
        assert_eq!(back.into_text().unwrap().1, long);
        let mut wrong: TextLine = serde_json::from_str(&json).unwrap();
        wrong.blob = hash("something else");
        assert!(wrong.into_text().unwrap_err().contains("does not match"));
        let garbage = TextLine { blob: "x".into(), text: None, z: Some("!!".into()) };
        assert!(garbage.into_text().unwrap_err().contains("base64"));
    }

    #[test]
    fn nodes_without_texts_pass_through() {
        let mut w = Written::default();
        let mut v = json!({"id": 3, "author": "human"});
        assert!(w.dehydrate(&mut v).is_empty());
        assert_eq!(v, json!({"id": 3, "author": "human"}));
    }
}
