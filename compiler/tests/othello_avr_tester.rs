//! Othello's firmware through avr-tester's own API (ATmega16 at 10 MHz), a second harness
//! beside `device/`: a short session typed on UART0, the answers read back, a lamp read off
//! its pin.

mod device;

use avr_tester::AvrTester;

/// Runs until the chip has sent a whole line starting with `want`, within `ms`; returns
/// everything sent.
fn until(avr: &mut AvrTester, want: &str, ms: u64) -> String {
    let mut got = String::new();
    for _ in 0..ms / 10 {
        avr.run_for_ms(10);
        got += &avr.uart0().read::<String>();
        let mut lines = got.split("\r\n").collect::<Vec<_>>();
        lines.pop();
        if lines.iter().any(|l| l.starts_with(want)) {
            return got;
        }
    }
    panic!("no {want:?} within {ms} ms; the chip sent {got:?}");
}

#[test]
fn a_short_session_through_avr_tester() {
    let (elf, _) = device::firmware("games/othello.game", "boards/othello_stk500_atmega16.board");
    let mut avr = AvrTester::atmega16().with_clock(10_000_000).with_timeout_of_s(60).load(&elf);
    assert_eq!(until(&mut avr, "Pick Black/White", 100), "Pick Black/White\r\n");
    avr.uart0().write("AT\r");
    assert_eq!(until(&mut avr, "OK", 100), "OK\r\n");
    avr.uart0().write("what?\r");
    assert_eq!(until(&mut avr, "ER", 100), "ER\r\n");
    avr.uart0().write("SP B\r");
    let prompt = until(&mut avr, "Type your move", 500);
    assert!(prompt.starts_with("OK\r\n  A B C D E F G H\r\n"), "{prompt}");
    assert!(prompt.contains("\r\n3       V        \r\n"), "D3 is marked legal: {prompt}");
    avr.uart0().write("MV A1\r");
    assert_eq!(until(&mut avr, "IL", 100), "IL\r\n");
    avr.uart0().write("MV D3\r");
    let answer = until(&mut avr, "OK", 500);
    assert!(answer.contains("\r\n3       B        \r\n"), "D3 is black now: {answer}");
    // White's three replies to D3 (C3, C5, E3) each turn one disc: three all.
    let reply = until(&mut avr, "MM ", 2500);
    assert!(["MM C3\r\n", "MM C5\r\n", "MM E3\r\n"].contains(&reply.as_str()), "{reply}");
    avr.uart0().write("EG\r");
    assert_eq!(until(&mut avr, " TE", 500), "OK\r\nThe final score is:AVR: 3 User: 3\r\n TE\r\n");
    avr.uart0().write("OK\r");
    avr.run_for_ms(5);
    assert!(avr.pins().pb3().is_low(), "PB3, a draw, lit (active low)");
    assert!(avr.pins().pb1().is_high() && avr.pins().pb2().is_high());
}
