// The engine worker's Python source is embedded in the binary (include_dir);
// rebuild when it changes.
fn main() {
    println!("cargo:rerun-if-changed=src/engine/python");
    println!("cargo:rerun-if-changed=src/engine/requirements.txt");
    println!("cargo:rerun-if-changed=src/engine/requirements-torch.txt");
}
