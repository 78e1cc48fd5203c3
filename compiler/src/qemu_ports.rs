//! A Cortex-M board's firmware in its chip's qemu-system-arm machine (an STM32F405 board's,
//! or an AT32F437 board's moved image, in `netduinoplus2`; an LM3S6965 board's in
//! `lm3s6965evb`) with some of its serial ports on local sockets, for `gamec play` to talk to:
//! QEMU's `-serial` options are the chip's ports in their order from the machine's first
//! (USART1, UART0), and those not asked for are null.

use gamec::chips::Qemu;
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// The running machine and a socket per USART asked for, in the order asked.
pub struct Machine {
    qemu: Child,
    pub ports: Vec<TcpStream>,
}

impl Machine {
    /// Boots `elf` in its QEMU machine with the serial ports named in `usarts` (`usart1`,
    /// `Uart0`, ...) on sockets.
    pub fn boot(elf: &Path, qemu: &Qemu, usarts: &[&str]) -> Result<Machine, String> {
        let numbers: Vec<usize> = usarts.iter().map(|u| number(u) + 1 - qemu.first_serial).collect();
        let listeners = numbers
            .iter()
            .map(|_| TcpListener::bind("127.0.0.1:0").map_err(|e| format!("a local port for a USART: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let mut cmd = Command::new("qemu-system-arm");
        cmd.args(["-M", qemu.machine, "-nographic", "-monitor", "none", "-kernel"]).arg(elf);
        for n in 1..=numbers.iter().copied().max().unwrap_or(1) {
            let serial = match numbers.iter().position(|&m| m == n) {
                Some(i) => format!("tcp:127.0.0.1:{}", listeners[i].local_addr().map_err(|e| e.to_string())?.port()),
                None => "null".to_string(),
            };
            cmd.args(["-serial", &serial]);
        }
        let qemu = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run qemu-system-arm: {e} (`cargo xtask setup` installs it)"))?;
        let mut machine = Machine { qemu, ports: Vec::new() };
        for l in &listeners {
            let (stream, _) = l.accept().map_err(|e| format!("QEMU's USART: {e}"))?;
            machine.ports.push(stream);
        }
        Ok(machine)
    }
}

impl Drop for Machine {
    fn drop(&mut self) {
        let _ = self.qemu.kill();
        let _ = self.qemu.wait();
    }
}

/// A serial port's number: 1 for `usart1`, 0 for `uart0`.
fn number(name: &str) -> usize {
    name.trim_start_matches(|c: char| !c.is_ascii_digit()).parse().unwrap_or(1)
}

/// Prints what a USART sends as it comes, and hands each whole line (without its line end) to
/// `heard`, until the machine stops.
pub fn echo_lines(mut from: TcpStream, mut heard: impl FnMut(&str)) {
    use std::io::{Read, Write};
    let (mut buf, mut line) = ([0u8; 256], Vec::new());
    let mut out = std::io::stdout();
    while let Ok(n @ 1..) = from.read(&mut buf) {
        let _ = out.write_all(&buf[..n]);
        let _ = out.flush();
        for &b in &buf[..n] {
            match b {
                b'\n' => heard(String::from_utf8_lossy(&std::mem::take(&mut line)).trim_end_matches('\r')),
                b => line.push(b),
            }
        }
    }
}
