//! Whether this machine can run the browser tests (`tests/serve.rs`): Chromium, Node.js and
//! `npm ci --prefix web/e2e`. Without them those tests are built ignored, with the reason, so
//! that `cargo test` says so in its summary rather than passing them unseen. With
//! `SANDTABLE_E2E=required` (CI) they are never ignored: missing, they fail and say why.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rustc-check-cfg=cfg(browser_tests)");
    println!("cargo:rerun-if-env-changed=SANDTABLE_E2E");
    println!("cargo:rerun-if-env-changed=CHROMIUM");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let modules = root.join("web/e2e/node_modules/playwright-core");
    // The folder always exists (a missing path would run this script on every build); it
    // changes when `npm ci` puts node_modules in it.
    println!("cargo:rerun-if-changed={}", root.join("web/e2e").display());
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let ready = Path::new(&chromium).exists()
        && modules.exists()
        && Command::new("node")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
    let required = std::env::var("SANDTABLE_E2E").is_ok_and(|v| v == "required");
    if ready || required {
        println!("cargo:rustc-cfg=browser_tests");
    }
}
