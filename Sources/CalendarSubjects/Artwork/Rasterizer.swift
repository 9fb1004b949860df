import Foundation

/// A software rasterizer: pale tinted fill, a 2 pt edge bar in the calendar colour, title and time in a built-in 3×5
/// bitmap font, and state styling.
///
/// Cost grows with the pixel area.
package enum Rasterizer {
    /// Rasterizes a description into an RGBA bitmap.
    /// - Complexity: O(pixel area).
    package static func rasterize(_ d: PaintDescription) -> Artwork {
        let w = max(1, d.width * d.scale), h = max(1, d.height * d.scale)
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        let r = UInt8((d.color >> 16) & 0xFF), g = UInt8((d.color >> 8) & 0xFF), b = UInt8(d.color & 0xFF)
        let dark = d.appearance == .dark
        let tint: Double = d.state == .selected ? 0.45 : (d.state == .dragging ? 0.6 : 0.18)
        let base: Double = dark ? 28 : 255
        func mix(_ c: UInt8) -> UInt8 { UInt8(base * (1 - tint) + Double(c) * tint) }
        let fill = (mix(r), mix(g), mix(b))
        let bar = 2 * d.scale
        pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<h {
                var i = y * w * 4
                for x in 0..<w {
                    let onBar = x < bar
                    let pending = d.state == .pending && (x + y) % 8 < 2
                    p[i] = onBar ? r : (pending ? fill.0 &- 20 : fill.0)
                    p[i + 1] = onBar ? g : (pending ? fill.1 &- 20 : fill.1)
                    p[i + 2] = onBar ? b : (pending ? fill.2 &- 20 : fill.2)
                    p[i + 3] = d.state == .dragging ? 230 : 255
                    i += 4
                }
            }
        }
        let glyph = max(1, d.scale * d.textSize / 100)
        drawText(
            d.title, x: bar + 2 * d.scale, y: 2 * d.scale, glyph: glyph, into: &pixels, width: w, height: h, dark: dark)
        drawText(
            d.timeText, x: bar + 2 * d.scale, y: 2 * d.scale + 7 * glyph, glyph: glyph, into: &pixels, width: w,
            height: h, dark: dark)
        return Artwork(description: d, pixelWidth: w, pixelHeight: h, pixels: pixels)
    }

    private static func drawText(
        _ text: String, x: Int, y: Int, glyph: Int, into pixels: inout [UInt8], width: Int, height: Int, dark: Bool
    ) {
        let ink: UInt8 = dark ? 235 : 30
        var cursor = x
        for scalar in text.unicodeScalars {
            let bits = BitmapFont.glyph(scalar)
            for row in 0..<5 {
                for column in 0..<3 where bits & (1 << (14 - row * 3 - column)) != 0 {
                    for dy in 0..<glyph {
                        for dx in 0..<glyph {
                            let px = cursor + column * glyph + dx, py = y + row * glyph + dy
                            guard px < width, py < height else { continue }
                            let i = (py * width + px) * 4
                            pixels[i] = ink
                            pixels[i + 1] = ink
                            pixels[i + 2] = ink
                        }
                    }
                }
            }
            cursor += 4 * glyph
            if cursor >= width { break }
        }
    }
}

/// A 3×5 bitmap font: 15 bits per glyph, row-major from the top-left.
enum BitmapFont {
    static func glyph(_ s: Unicode.Scalar) -> Int {
        switch Character(s).uppercased() {
        case "A": 0b010_101_111_101_101
        case "B": 0b110_101_110_101_110
        case "C": 0b011_100_100_100_011
        case "D": 0b110_101_101_101_110
        case "E": 0b111_100_110_100_111
        case "F": 0b111_100_110_100_100
        case "G": 0b011_100_101_101_011
        case "H": 0b101_101_111_101_101
        case "I": 0b111_010_010_010_111
        case "J": 0b001_001_001_101_010
        case "K": 0b101_101_110_101_101
        case "L": 0b100_100_100_100_111
        case "M": 0b101_111_111_101_101
        case "N": 0b110_101_101_101_101
        case "O": 0b010_101_101_101_010
        case "P": 0b110_101_110_100_100
        case "Q": 0b010_101_101_110_011
        case "R": 0b110_101_110_101_101
        case "S": 0b011_100_010_001_110
        case "T": 0b111_010_010_010_010
        case "U": 0b101_101_101_101_111
        case "V": 0b101_101_101_101_010
        case "W": 0b101_101_111_111_101
        case "X": 0b101_101_010_101_101
        case "Y": 0b101_101_010_010_010
        case "Z": 0b111_001_010_100_111
        case "0": 0b111_101_101_101_111
        case "1": 0b010_110_010_010_111
        case "2": 0b110_001_010_100_111
        case "3": 0b110_001_010_001_110
        case "4": 0b101_101_111_001_001
        case "5": 0b111_100_110_001_110
        case "6": 0b011_100_111_101_111
        case "7": 0b111_001_010_010_010
        case "8": 0b111_101_111_101_111
        case "9": 0b111_101_111_001_110
        case ":": 0b000_010_000_010_000
        case "-", "–": 0b000_000_111_000_000
        default: 0
        }
    }
}
