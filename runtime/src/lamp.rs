//! A lamp on an output pin, lit by a high or a low level as the board wires it.

use embedded_hal::digital::{OutputPin, PinState};

pub struct Lamp<P> {
    pin: P,
    active_low: bool,
}

impl<P: OutputPin> Lamp<P> {
    /// The lamp on `pin`, off.
    pub fn new(pin: P, active_low: bool) -> Self {
        let mut lamp = Lamp { pin, active_low };
        lamp.set(false);
        lamp
    }

    pub fn set(&mut self, on: bool) {
        let _ = self.pin.set_state(PinState::from(on != self.active_low));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::convert::Infallible;
    use embedded_hal::digital::ErrorType;

    struct Pin(bool);
    impl ErrorType for Pin {
        type Error = Infallible;
    }
    impl OutputPin for Pin {
        fn set_low(&mut self) -> Result<(), Infallible> {
            self.0 = false;
            Ok(())
        }
        fn set_high(&mut self) -> Result<(), Infallible> {
            self.0 = true;
            Ok(())
        }
    }

    #[test]
    fn a_lamp_lit_low_drives_its_pin_low_when_on() {
        let mut low = Lamp::new(Pin(false), true);
        assert!(low.pin.0, "off is high");
        low.set(true);
        assert!(!low.pin.0);
        let mut high = Lamp::new(Pin(true), false);
        assert!(!high.pin.0, "off is low");
        high.set(true);
        assert!(high.pin.0);
    }
}
