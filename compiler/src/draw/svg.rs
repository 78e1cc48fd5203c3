//! The drawing's shapes and their SVG text: positions in, markup out, nothing measured here.

use std::fmt::Write;

/// Where a text stands relative to its point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// A shape at integer coordinates, with the style class the sheet gives it.
#[derive(Debug, Clone)]
pub enum Shape {
    Rect {
        x: i32,
        y: i32,
        w: i32,
        h: i32,
        class: &'static str,
    },
    Line {
        x1: i32,
        y1: i32,
        x2: i32,
        y2: i32,
        class: &'static str,
    },
    Circle {
        x: i32,
        y: i32,
        r: i32,
        class: &'static str,
    },
    Polygon {
        points: Vec<(i32, i32)>,
        class: &'static str,
    },
    Text {
        x: i32,
        y: i32,
        text: String,
        anchor: Anchor,
        class: &'static str,
    },
    /// Shapes marked with `data-` attributes, for a page that lights and clicks them (`gamec
    /// play --web`): an LED's cell, a matrix cell's row and column, a part's pin.
    Marked {
        data: Vec<(&'static str, String)>,
        shapes: Vec<Shape>,
    },
    /// Shapes moved by `(dx, dy)`, with a tooltip naming what they show.
    Group {
        dx: i32,
        dy: i32,
        title: Option<String>,
        shapes: Vec<Shape>,
    },
}

impl Shape {
    pub fn text(x: i32, y: i32, text: impl Into<String>, class: &'static str) -> Shape {
        Shape::Text { x, y, text: text.into(), anchor: Anchor::Start, class }
    }

    pub fn text_at(x: i32, y: i32, text: impl Into<String>, anchor: Anchor, class: &'static str) -> Shape {
        Shape::Text { x, y, text: text.into(), anchor, class }
    }

    pub fn line(x1: i32, y1: i32, x2: i32, y2: i32, class: &'static str) -> Shape {
        Shape::Line { x1, y1, x2, y2, class }
    }

    /// Shapes with one `data-NAME="VALUE"` attribute around them.
    pub fn marked(name: &'static str, value: impl Into<String>, shapes: Vec<Shape>) -> Shape {
        Shape::Marked { data: vec![(name, value.into())], shapes }
    }

    /// Shapes that hover as one, with a tooltip.
    pub fn titled(title: impl Into<String>, shapes: Vec<Shape>) -> Shape {
        Shape::Group { dx: 0, dy: 0, title: Some(title.into()), shapes }
    }
}

/// The style sheet: one font, monospaced, so that the layout can measure texts by characters.
const STYLE: &str = "\
text { font-family: monospace; font-size: 12px; fill: #222; }
.title { font-size: 16px; font-weight: bold; }
.head { font-weight: bold; }
.dim { fill: #666; }
.free { fill: #aaa; }
.reserved { fill: #b03030; }
.red { fill: #c00000; }
.green { fill: #007000; }
.chip { fill: #f3f1ea; stroke: #333; stroke-width: 2; }
.panel { fill: none; stroke: #bbb; }
.wire { stroke: #333; stroke-width: 1.5; fill: none; }
.stub { stroke: #bbb; stroke-width: 1.5; }
.red-wire { stroke: #c00000; stroke-width: 1.5; }
.green-wire { stroke: #007000; stroke-width: 1.5; }
.dot { fill: #333; }
.diode { fill: #ffd24a; stroke: #333; }
.led { fill: #fff6d0; stroke: #333; }
";

/// The SVG document: `width` by `height`, a white sheet, the title and the shapes.
pub fn document(width: i32, height: i32, title: &str, shapes: &[Shape]) -> String {
    let mut out = String::new();
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\">"
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(out, "<style>\n{STYLE}</style>");
    let _ = writeln!(out, "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>");
    for s in shapes {
        write_shape(&mut out, s, 0);
    }
    out.push_str("</svg>\n");
    out
}

fn write_shape(out: &mut String, shape: &Shape, depth: usize) {
    let pad = "  ".repeat(depth);
    let _ = match shape {
        Shape::Rect { x, y, w, h, class } => {
            writeln!(out, "{pad}<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" class=\"{class}\"/>")
        }
        Shape::Line { x1, y1, x2, y2, class } => {
            writeln!(out, "{pad}<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" class=\"{class}\"/>")
        }
        Shape::Circle { x, y, r, class } => {
            writeln!(out, "{pad}<circle cx=\"{x}\" cy=\"{y}\" r=\"{r}\" class=\"{class}\"/>")
        }
        Shape::Polygon { points, class } => {
            let points: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
            writeln!(out, "{pad}<polygon points=\"{}\" class=\"{class}\"/>", points.join(" "))
        }
        Shape::Text { x, y, text, anchor, class } => {
            let anchor = match anchor {
                Anchor::Start => "",
                Anchor::Middle => " text-anchor=\"middle\"",
                Anchor::End => " text-anchor=\"end\"",
            };
            let class = if class.is_empty() { String::new() } else { format!(" class=\"{class}\"") };
            writeln!(out, "{pad}<text x=\"{x}\" y=\"{y}\"{anchor}{class}>{}</text>", escape(text))
        }
        Shape::Marked { data, shapes } => {
            let attrs: String = data.iter().map(|(k, v)| format!(" data-{k}=\"{}\"", escape(v))).collect();
            let _ = writeln!(out, "{pad}<g{attrs}>");
            for s in shapes {
                write_shape(out, s, depth + 1);
            }
            writeln!(out, "{pad}</g>")
        }
        Shape::Group { dx, dy, title, shapes } => {
            let moved =
                if (*dx, *dy) == (0, 0) { String::new() } else { format!(" transform=\"translate({dx},{dy})\"") };
            let _ = writeln!(out, "{pad}<g{moved}>");
            if let Some(t) = title {
                let _ = writeln!(out, "{pad}  <title>{}</title>", escape(t));
            }
            for s in shapes {
                write_shape(out, s, depth + 1);
            }
            writeln!(out, "{pad}</g>")
        }
    };
}

/// Text made safe for XML's character data and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_escaped_and_groups_nest() {
        let shapes = [Shape::Group {
            dx: 5,
            dy: 0,
            title: Some("LED 1: PA1 > PA3".into()),
            shapes: vec![Shape::text(1, 2, "a < b & c", "dim")],
        }];
        let svg = document(10, 20, "t", &shapes);
        assert!(svg.contains("<g transform=\"translate(5,0)\">"), "{svg}");
        assert!(svg.contains("<title>LED 1: PA1 &gt; PA3</title>"), "{svg}");
        assert!(svg.contains(">a &lt; b &amp; c</text>"), "{svg}");
        assert!(svg.trim_end().ends_with("</svg>"));
        let marked = document(10, 20, "t", &[Shape::marked("pin", "PB0", vec![])]);
        assert!(marked.contains("<g data-pin=\"PB0\">"), "{marked}");
    }
}
