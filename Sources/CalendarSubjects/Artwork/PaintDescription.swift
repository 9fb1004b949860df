/// Everything drawing an event needs, and nothing else: no provider, store or pending write.
///
/// It is the artwork cache's key, so a title edit, another width, appearance or text size needs a new image.
package struct PaintDescription: Sendable, Hashable {
    /// The interaction state an event view is painted in.
    package enum State: String, Sendable, Hashable, CaseIterable { case normal, selected, dragging, pending }
    /// Light or dark appearance.
    package enum Appearance: String, Sendable, Hashable { case light, dark }

    /// The event's title, as painted.
    package var title: String
    /// The event's time text, as painted.
    package var timeText: String
    /// Calendar colour, 0xRRGGBB.
    package var color: UInt32
    /// The interaction state.
    package var state: State
    /// Size in points.
    package var width: Int
    /// Height in points, rounded.
    package var height: Int
    /// Pixels per point.
    package var scale: Int
    /// Light or dark.
    package var appearance: Appearance
    /// Text size multiplier, in percent.
    package var textSize: Int
    /// The renderer's version: a new renderer never reuses an old image.
    package var rendererVersion: Int

    /// A description; every field is part of the cache key.
    package init(
        title: String, timeText: String, color: UInt32, state: State = .normal, width: Int, height: Int, scale: Int = 2,
        appearance: Appearance = .light, textSize: Int = 100, rendererVersion: Int = 1
    ) {
        self.title = title
        self.timeText = timeText
        self.color = color
        self.state = state
        self.width = width
        self.height = height
        self.scale = scale
        self.appearance = appearance
        self.textSize = textSize
        self.rendererVersion = rendererVersion
    }

    /// Bytes of the RGBA bitmap this description rasterizes to.
    package var byteCount: Int { max(1, width * scale) * max(1, height * scale) * 4 }
}

/// A rasterized event image.
package final class Artwork: Sendable {
    /// What the image was painted from.
    package let description: PaintDescription
    /// Width in pixels.
    package let pixelWidth: Int
    /// Height in pixels.
    package let pixelHeight: Int
    /// RGBA, row-major.
    package let pixels: [UInt8]
    /// Bytes the pixels occupy.
    package var byteCount: Int { pixels.count }

    init(description: PaintDescription, pixelWidth: Int, pixelHeight: Int, pixels: [UInt8]) {
        self.description = description
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.pixels = pixels
    }
}
