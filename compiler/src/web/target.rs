//! What the page needs to know of a board to run its firmware, as JSON: the chip and its
//! clock, and the pins of each device the bound [`Target`] drives (the charlieplexed LEDs
//! row by row, the matrix, buttons, encoders, lamps, speaker, serial port, EEPROM). The
//! page's register map (compiler/web/js/chips.js) is keyed by the chip's name.

use crate::bind::Target;
use gamec_dsl::Pin;
use serde_json::{json, Value};

fn pin(p: &Pin) -> Value {
    Value::String(p.to_string())
}

fn bit(mask: u8) -> u32 {
    mask.trailing_zeros()
}

/// The board as the page binds it; `eeprom` is the 93C46's image, where the board has one.
pub fn to_json(target: &Target, eeprom: Option<&[u8]>) -> Value {
    let display = target.display.as_ref().map(|d| {
        let rows: Vec<Value> = d
            .rows
            .iter()
            .map(|(cathode, leds)| {
                let leds: Vec<Value> =
                    leds.iter().map(|(cell, anode)| json!({ "cell": cell, "anode": bit(*anode) })).collect();
                json!({ "cathode": bit(*cathode), "leds": leds })
            })
            .collect();
        json!({ "port": d.port.to_string(), "rows": rows })
    });
    let cursor = target.cursor.as_ref();
    let matrix = cursor.map(|c| {
        let m = &c.matrix;
        json!({
            "rows": m.rows.iter().map(pin).collect::<Vec<_>>(),
            "red": m.red.iter().map(pin).collect::<Vec<_>>(),
            "green": m.green.iter().map(pin).collect::<Vec<_>>(),
            "active_high": m.columns_active_high,
        })
    });
    let encoders: Vec<Value> = cursor
        .map(|c| {
            c.encoders.iter().map(|(across, a, b)| json!({ "across": across, "a": pin(a), "b": pin(b) })).collect()
        })
        .unwrap_or_default();
    // A cursor's select and restart buttons are its inputs; a buttons game's are its controls.
    let (inputs, commit): (Vec<Value>, Option<usize>) = match cursor {
        Some(c) => (std::iter::once(&c.commit).chain(&c.restart).map(pin).collect(), Some(0)),
        None => {
            (target.inputs.iter().map(pin).collect(), (!target.inputs.is_empty()).then_some(target.commit as usize))
        }
    };
    let eeprom = cursor
        .and_then(|c| c.eeprom)
        .zip(eeprom)
        .map(|(pins, image)| json!({ "pins": pins.iter().map(pin).collect::<Vec<_>>(), "image": image }));
    // The serial port by the name the chip's register map gives it.
    let serial = target
        .serial
        .as_ref()
        .and_then(|s| target.chip.serial_ports.iter().find(|p| p.vector == s.rx_vector))
        .map(|p| p.name);
    json!({
        "chip": target.chip.name,
        "clock_hz": target.clock_hz,
        "flash": target.chip.flash,
        "display": display,
        "matrix": matrix,
        "inputs": inputs,
        "commit": commit,
        "restart": cursor.and_then(|c| c.restart.as_ref()).map(pin),
        "encoders": encoders,
        "speaker": target.speaker.as_ref().map(|s| pin(&s.pin)),
        "lamps": target.lamps.iter().map(|(p, low)| json!({ "pin": pin(p), "active_low": low })).collect::<Vec<_>>(),
        "serial": serial,
        "eeprom": eeprom,
    })
}
