//! `sandtable serve`: starts the web server and prints where to open it.

use crate::ui::{tr, CmdResult, Failure};
use sandtable_core::text::{Lang, Text};
use std::net::SocketAddr;
use std::path::Path;

pub fn run(addr: SocketAddr, data: &Path, limits: sandtable_server::hub::Limits, lang: Lang) -> CmdResult {
    let fail = |e: sandtable_server::ServeError| Failure::new(Text::new(e.to_string(), format!("服务器错误:{e}")));
    let hub = sandtable_server::open_with(data, limits).map_err(fail)?;
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|e| Failure::new(Text::new(format!("cannot start: {e}"), format!("无法启动:{e}"))))?;
    let data = data.display().to_string();
    runtime
        .block_on(sandtable_server::serve(hub, addr, |bound| {
            let msg = tr!(
                "Sandtable is serving at http://{bound}/ (games stored in {data}; Ctrl-C stops it)",
                "沙盘已启动:http://{bound}/(对局保存在 {data};按 Ctrl-C 停止)"
            );
            println!("{}", msg.get(lang));
        }))
        .map_err(fail)
}
