/// Everything drawing an event needs, and nothing else: no provider, store or pending write.
/// It is the artwork cache's key, so a title edit, another width, appearance or text size
/// needs a new image.
public struct PaintDescription: Sendable, Hashable {
    /// The interaction state an event view is painted in.
    public enum State: String, Sendable, Hashable, CaseIterable { case normal, selected, dragging, pending }
    /// Light or dark appearance.
    public enum Appearance: String, Sendable, Hashable { case light, dark }

    /// The event's title, as painted.
    public var title: String
    /// The event's time text, as painted.
    public var timeText: String
    /// Calendar colour, 0xRRGGBB.
    public var color: UInt32
    /// The interaction state.
    public var state: State
    /// Size in points.
    public var width: Int
    /// Height in points, rounded.
    public var height: Int
    /// Pixels per point.
    public var scale: Int
    /// Light or dark.
    public var appearance: Appearance
    /// Text size multiplier, in percent.
    public var textSize: Int
    /// The renderer's version: a new renderer never reuses an old image.
    public var rendererVersion: Int

    /// A description; every field is part of the cache key.
    public init(
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
    public var byteCount: Int { max(1, width * scale) * max(1, height * scale) * 4 }
}

/// A rasterized event image.
public final class Artwork: Sendable {
    /// What the image was painted from.
    public let description: PaintDescription
    /// Width in pixels.
    public let pixelWidth: Int
    /// Height in pixels.
    public let pixelHeight: Int
    /// RGBA, row-major.
    public let pixels: [UInt8]
    /// Bytes the pixels occupy.
    public var byteCount: Int { pixels.count }

    init(description: PaintDescription, pixelWidth: Int, pixelHeight: Int, pixels: [UInt8]) {
        self.description = description
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.pixels = pixels
    }
}
