//! Positions: the chip's box with a row a terminal and what each drives beside it, and below
//! it a panel a device (a charlieplexed display's LEDs between their pins, a matrix's grid, a
//! part's connections), packed in rows. Texts are measured by their characters (the sheet's
//! one font is monospaced).

use super::svg::{Anchor, Shape};
use super::wiring::{rate, Device, Terminal, Wiring};
use gamec_dsl::Pin;

const MARGIN: i32 = 20;
const ROW: i32 = 18;
/// Space between the rows of two ports.
const PORT_GAP: i32 = 6;
/// The widest a sheet of panels gets before they wrap, unless the pin table is wider.
const SHEET: i32 = 760;
/// Where the chip's box starts, below the title.
const TOP: i32 = 70;
/// A pin table taller than this has the panels beside it rather than below.
const TALL: i32 = 480;

/// The width of a text in the 12px monospaced font (0.6 em a character), rounded up.
fn width(text: &str) -> i32 {
    (text.chars().count() as i32 * 72 + 9) / 10
}

/// A device's drawing in its own coordinates, `w` by `h`.
struct Panel {
    w: i32,
    h: i32,
    shapes: Vec<Shape>,
}

/// The whole drawing: its size and its shapes.
pub fn layout(wiring: &Wiring) -> (i32, i32, Vec<Shape>) {
    let mut shapes = vec![
        Shape::text(MARGIN, 30, format!("board {}", wiring.board), "title"),
        Shape::text(MARGIN, 50, &wiring.summary, "dim"),
    ];
    let (table_w, table_bottom) = pin_table(wiring, TOP, &mut shapes);
    // Panels in rows, left to right, a new row when one would pass the sheet's edge: below
    // the pin table, or beside a tall one (a chip of many ports).
    let (left, top, sheet) = match table_bottom - TOP > TALL {
        true => (table_w + 30, TOP, table_w + 30 + SHEET),
        false => (MARGIN, table_bottom + 30, table_w.max(SHEET)),
    };
    let (mut x, mut y, mut row_h) = (left, top, 0);
    let mut right = table_w;
    for device in &wiring.devices {
        let panel = panel(device);
        if x > left && x + panel.w > sheet {
            (x, y, row_h) = (left, y + row_h + 20, 0);
        }
        right = right.max(x + panel.w);
        let group = Shape::Group { dx: x, dy: y, title: None, shapes: panel.shapes };
        shapes.push(Shape::marked("panel", device.name(), vec![group]));
        x += panel.w + 20;
        row_h = row_h.max(panel.h);
    }
    let bottom = if row_h == 0 { table_bottom } else { table_bottom.max(y + row_h) };
    let w = right.max(width(&wiring.summary) + MARGIN) + MARGIN;
    (w, bottom + MARGIN, shapes)
}

/// The chip's box from `top`, a row a terminal: its name inside the box, a wire out and what
/// it drives. Returns the table's right edge and its bottom.
fn pin_table(wiring: &Wiring, top: i32, shapes: &mut Vec<Shape>) -> (i32, i32) {
    let names = wiring.terminals.iter().map(|t| width(&t.name));
    let box_w = names.max().unwrap_or(0).max(width(&wiring.chip)).max(80) + 40;
    let right = MARGIN + box_w;
    let mut rows = Vec::new();
    let mut y = top + 44;
    let mut text_right = right;
    for (i, t) in wiring.terminals.iter().enumerate() {
        if i > 0 && t.port != wiring.terminals[i - 1].port {
            y += PORT_GAP;
        }
        let row = terminal_row(t, right, y);
        text_right = text_right.max(right + 34 + width(&t.title()));
        rows.push(row);
        y += ROW;
    }
    let bottom = y.max(top + 60);
    shapes.push(Shape::Rect { x: MARGIN, y: top, w: box_w, h: bottom - top, class: "chip" });
    shapes.push(Shape::text_at(MARGIN + box_w / 2, top + 22, &wiring.chip, Anchor::Middle, "head"));
    if wiring.terminals.is_empty() {
        shapes.push(Shape::text_at(MARGIN + box_w / 2, top + 40, "no pins named", Anchor::Middle, "dim"));
    }
    shapes.extend(rows);
    (text_right, bottom)
}

/// One terminal's row at height `y`, the box's right edge at `right`.
fn terminal_row(t: &Terminal, right: i32, y: i32) -> Shape {
    let used = !t.uses.is_empty();
    let class = match (used, &t.note) {
        (_, Some(_)) => "reserved",
        (true, None) => "head",
        (false, None) => "free",
    };
    let mut shapes = vec![Shape::text_at(right - 10, y + 4, &t.name, Anchor::End, class)];
    match (used, &t.note) {
        (false, None) => shapes.push(Shape::line(right, y, right + 10, y, "stub")),
        _ => {
            shapes.push(Shape::line(right, y, right + 28, y, if used { "wire" } else { "stub" }));
            let what: Vec<&str> = t.uses.iter().map(String::as_str).chain(t.note.as_deref()).collect();
            shapes.push(Shape::text(right + 34, y + 4, what.join("; "), if used { "" } else { "reserved" }));
        }
    }
    Shape::titled(t.title(), shapes)
}

fn panel(device: &Device) -> Panel {
    let mut p = match device {
        Device::Charlieplex { name, pins, leds, refresh_hz, timer } => {
            charlieplex(name, pins, leds, &format!("refreshed at {} from {timer}", rate(*refresh_hz)))
        }
        Device::Matrix { name, rows, red, green, active_high, refresh_hz, timer } => {
            let columns = if *active_high { "columns active high" } else { "columns sink (active low)" };
            let note =
                format!("rows light when high, {columns}; a column at a time, {} from {timer}", rate(*refresh_hz));
            matrix(name, rows, red, green, &note)
        }
        Device::Part { title, lines, note } => part(title, lines, note),
    };
    p.shapes.insert(0, Shape::Rect { x: 0, y: 0, w: p.w, h: p.h, class: "panel" });
    p
}

/// The LEDs between their pins: a line a pin, a column an LED from its anode's line to its
/// cathode's, the diode's triangle pointing to the cathode, the cell's number above.
fn charlieplex(name: &str, pins: &[Pin], leds: &[(u32, Pin, Pin)], note: &str) -> Panel {
    const BUS: i32 = 26;
    const COL: i32 = 30;
    let bus_y = |pin: Pin| pins.iter().position(|&p| p == pin).map_or(0, |i| 64 + i as i32 * BUS);
    let x0 = 70;
    let end = x0 + leds.len().max(1) as i32 * COL;
    let title = format!("display {name}: charlieplexed LEDs");
    let mut shapes = vec![Shape::text(10, 20, &title, "head"), Shape::text(10, 44, "LED", "dim")];
    for &p in pins {
        let y = bus_y(p);
        shapes.push(Shape::titled(
            format!("{p}: display {name}"),
            vec![Shape::text(10, y + 4, p.to_string(), "head"), Shape::line(50, y, end, y, "wire")],
        ));
    }
    for (k, &(cell, anode, cathode)) in leds.iter().enumerate() {
        let x = x0 + k as i32 * COL + COL / 2;
        let (ya, yc) = (bus_y(anode), bus_y(cathode));
        let dir = if yc >= ya { 1 } else { -1 };
        // The diode just past the anode's line, so that it never sits on another pin's line.
        let ym = ya + dir * BUS / 2;
        let led = Shape::titled(
            format!("LED {cell}: {anode} > {cathode}"),
            vec![
                Shape::text_at(x, 44, cell.to_string(), Anchor::Middle, "head"),
                Shape::line(x, ya, x, yc, "wire"),
                Shape::Circle { x, y: ya, r: 3, class: "dot" },
                Shape::Circle { x, y: yc, r: 3, class: "dot" },
                Shape::Polygon {
                    points: vec![(x - 6, ym - dir * 5), (x + 6, ym - dir * 5), (x, ym + dir * 5)],
                    class: "diode",
                },
                Shape::line(x - 6, ym + dir * 5, x + 6, ym + dir * 5, "wire"),
            ],
        );
        shapes.push(Shape::marked("led", cell.to_string(), vec![led]));
    }
    let last = 64 + (pins.len().max(1) as i32 - 1) * BUS;
    let legend = "each LED from its anode's pin to its cathode's: lit with the anode high, the cathode low";
    shapes.push(Shape::text(10, last + 28, legend, "dim"));
    shapes.push(Shape::text(10, last + 46, note, "dim"));
    let w = (end + 20).max(width(&title) + 20).max(width(legend) + 20).max(width(note) + 20);
    Panel { w, h: last + 58, shapes }
}

/// A bicolour matrix: a line a row pin, a red and a green line a column, an LED at each
/// crossing; the column's letter and pins above, the row's number and pin to the left.
fn matrix(name: &str, rows: &[Pin], red: &[Pin], green: &[Pin], note: &str) -> Panel {
    const CELL: i32 = 34;
    let (x0, y0) = (80, 94);
    let columns = red.len().max(green.len());
    let (right, bottom) = (x0 + columns as i32 * CELL, y0 + rows.len() as i32 * CELL);
    let title = format!("display {name}: bicolour matrix");
    let mut shapes = vec![Shape::text(10, 20, &title, "head")];
    shapes.push(Shape::text(10, 56, "red", "red"));
    shapes.push(Shape::text(10, 72, "green", "green"));
    for (i, p) in rows.iter().enumerate() {
        let y = y0 + i as i32 * CELL + CELL / 2;
        shapes.push(Shape::titled(
            format!("{p}: display {name} row {}", i + 1),
            vec![
                Shape::text(10, y + 4, format!("{}", i + 1), "dim"),
                Shape::text(30, y + 4, p.to_string(), "head"),
                Shape::line(x0 - 10, y, right, y, "wire"),
            ],
        ));
    }
    for j in 0..columns {
        let x = x0 + j as i32 * CELL + CELL / 2;
        let letter = (b'A' + (j % 26) as u8) as char;
        let mut column = vec![Shape::text_at(x, 40, letter.to_string(), Anchor::Middle, "dim")];
        let mut pins = Vec::new();
        for (pins_of, dx, y, class, wire) in [(red, -4, 56, "red", "red-wire"), (green, 4, 72, "green", "green-wire")] {
            if let Some(p) = pins_of.get(j) {
                column.push(Shape::text_at(x, y, p.to_string(), Anchor::Middle, class));
                column.push(Shape::line(x + dx, y0 - 6, x + dx, bottom, wire));
                pins.push(format!("{class} {p}"));
            }
        }
        for i in 0..rows.len() {
            let led = Shape::Circle { x, y: y0 + i as i32 * CELL + CELL / 2, r: 8, class: "led" };
            column.push(Shape::marked("cell", format!("{i},{j}"), vec![led]));
        }
        shapes.push(Shape::titled(format!("column {letter}: {}", pins.join(", ")), column));
    }
    let legend =
        "an LED at each crossing: its common anode on the row, its red and green cathodes on the column's pins";
    shapes.push(Shape::text(10, bottom + 22, legend, "dim"));
    shapes.push(Shape::text(10, bottom + 40, note, "dim"));
    let w = (right + 20).max(width(&title) + 20).max(width(legend) + 20).max(width(note) + 20);
    Panel { w, h: bottom + 52, shapes }
}

/// A part: its title, then a line a connection (the chip's pin or a supply, and what is
/// wired there), then a note.
fn part(title: &str, lines: &[(String, String)], note: &str) -> Panel {
    let pin_w = lines.iter().map(|(p, _)| width(p)).max().unwrap_or(0);
    let mut shapes = vec![Shape::text(10, 20, title, "head")];
    let mut w = width(title) + 20;
    for (i, (pin, what)) in lines.iter().enumerate() {
        let y = 42 + i as i32 * ROW;
        let line = Shape::titled(
            format!("{pin}: {what}"),
            vec![
                Shape::text(10, y, pin, "head"),
                Shape::line(16 + pin_w, y - 4, 30 + pin_w, y - 4, "wire"),
                Shape::text(36 + pin_w, y, what, ""),
            ],
        );
        // A pin of a port is marked, for a page to press a button or light a lamp on it.
        let is_pin = pin.len() >= 3 && pin.starts_with('P') && pin[2..].bytes().all(|b| b.is_ascii_digit());
        shapes.push(if is_pin { Shape::marked("pin", pin, vec![line]) } else { line });
        w = w.max(46 + pin_w + width(what));
    }
    let y = 42 + lines.len() as i32 * ROW;
    shapes.push(Shape::text(10, y, note, "dim"));
    Panel { w: w.max(width(note) + 20), h: y + 12, shapes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_measured_by_their_characters() {
        assert_eq!(width(""), 0);
        assert_eq!(width("PA0"), 22);
        assert_eq!(width("ab"), width("AB"));
    }

    #[test]
    fn panels_wrap_at_the_sheet_edge() {
        let part = |n: usize| Device::Part { title: "x".repeat(n), lines: vec![], note: String::new() };
        let wiring = Wiring {
            board: "b".into(),
            summary: "s".into(),
            chip: "c".into(),
            terminals: vec![],
            devices: vec![part(60), part(60), part(60)],
        };
        let (w, _, shapes) = layout(&wiring);
        let origins: Vec<(i32, i32)> = shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Marked { shapes, .. } => match shapes.first() {
                    Some(Shape::Group { dx, dy, title: None, .. }) => Some((*dx, *dy)),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        // Each panel is 452 wide: one a row on a 760 sheet.
        assert_eq!(origins.len(), 3);
        assert!(origins.windows(2).all(|o| o[1].1 > o[0].1 && o[1].0 == MARGIN), "{origins:?}");
        assert!(w <= SHEET + 2 * MARGIN, "{w}");
    }
}
