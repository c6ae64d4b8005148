// The flame graph of a profile: a self-contained SVG, one lane per thread, one frame per instance.

extension StartupProfile {
    /// The profile as a flame graph: a self-contained SVG (no script, no external file) that a browser opens.
    ///
    /// Each thread has a lane; in it, time runs left to right and each instance is one frame (an SVG `rect` of
    /// class `frame`) as wide as its factory took, standing on the frame of the instance that asked for it (on
    /// the same thread). A frame is labelled with its registration where the label fits; hovering over it shows
    /// the registration, scope, container, total and self time, parent and registration site. Async factories
    /// are blue, failed ones grey, the others a warm colour per registration.
    ///
    /// ```swift
    /// try profile.write(to: URL(filePath: "startup.svg"))
    /// ```
    public var flameGraphSVG: String {
        let layout = _FlameLayout(self)
        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(layout.width)\" height=\"\(layout.height)\" "
                + "viewBox=\"0 0 \(layout.width) \(layout.height)\" font-family=\"Menlo, DejaVu Sans Mono, monospace\" "
                + "font-size=\"12\">",
            "<rect x=\"0\" y=\"0\" width=\"\(layout.width)\" height=\"\(layout.height)\" fill=\"#fdfaf3\"/>",
            "<text x=\"\(_FlameLayout.margin)\" y=\"24\" font-size=\"16\" font-weight=\"bold\">"
                + "\(Self.xmlEscaped(layout.title))</text>",
        ]
        for lane in layout.lanes {
            svg.append(
                "<text x=\"\(_FlameLayout.margin)\" y=\"\(lane.top + 14)\" fill=\"#555\">"
                    + "\(Self.xmlEscaped(lane.title))</text>")
            for frame in lane.frames { svg.append(self.frame(frame, layout)) }
        }
        svg += layout.ticks.map { tick in
            "<line x1=\"\(tick.x)\" y1=\"\(layout.axisTop)\" x2=\"\(tick.x)\" y2=\"\(layout.axisTop + 5)\" "
                + "stroke=\"#555\"/><text x=\"\(tick.x)\" y=\"\(layout.axisTop + 18)\" "
                + "text-anchor=\"\(tick.x == _FlameLayout.margin ? "start" : "middle")\" "
                + "fill=\"#555\">\(tick.label)</text>"
        }
        svg.append(
            "<line x1=\"\(_FlameLayout.margin)\" y1=\"\(layout.axisTop)\" "
                + "x2=\"\(layout.width - _FlameLayout.margin)\" y2=\"\(layout.axisTop)\" stroke=\"#555\"/>")
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// One frame: its tooltip, its rectangle and, when it fits, its label.
    private func frame(_ frame: _FlameLayout.Frame, _ layout: _FlameLayout) -> String {
        let instance = instances[frame.instance]
        var tooltip =
            "\(instance.registration): \(Self.milliseconds(instance.durationNanoseconds)) total, "
            + "\(Self.milliseconds(instance.selfNanoseconds)) self; \(instance.scope) in \(instance.container)"
        if let parent = instance.parent { tooltip += "; made for \(instances[parent].registration)" }
        tooltip += "; registered at \(instance.site)"
        if instance.failed { tooltip += " (failed)" }
        let fill = instance.failed ? "#c0c0c0" : instance.isAsync ? "#8fb8e8" : Self.warmColor(instance.registration)
        var group =
            "<g><title>\(Self.xmlEscaped(tooltip))</title>"
            + "<rect class=\"frame\" x=\"\(Self.decimal(frame.x))\" y=\"\(frame.y)\" width=\"\(Self.decimal(frame.width))\" "
            + "height=\"\(_FlameLayout.rowHeight - 1)\" rx=\"2\" fill=\"\(fill)\"/>"
        let label = Self.fitted(instance.registration.description, width: frame.width)
        if !label.isEmpty {
            group += "<text x=\"\(Self.decimal(frame.x + 3))\" y=\"\(frame.y + 13)\">\(Self.xmlEscaped(label))</text>"
        }
        return group + "</g>"
    }

    /// `text`, cut to what fits in `width` points of 12-point monospace (empty when not even three characters fit).
    static func fitted(_ text: String, width: Double) -> String {
        let room = Int((width - 6) / 7.3)
        if room >= text.count { return text }
        return room < 3 ? "" : String(text.prefix(room - 1)) + "…"
    }

    /// A warm colour that stays the same for a registration from one profile to the next.
    static func warmColor(_ key: ServiceKey) -> String {
        var hash: UInt32 = 2_166_136_261
        for byte in key.description.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let red = 205 + Int(hash % 50)
        let green = 90 + Int((hash >> 8) % 110)
        let blue = 40 + Int((hash >> 16) % 50)
        return "rgb(\(red),\(green),\(blue))"
    }

    /// A coordinate with at most two decimals.
    static func decimal(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return fraction == 0 ? "\(hundredths / 100)" : "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// The text with `&`, `<`, `>` and quotes escaped for XML.
    static func xmlEscaped(_ text: String) -> String {
        text.escaped(["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;"])
    }
}

/// Where each frame of a flame graph goes.
struct _FlameLayout {
    struct Frame {
        let instance: Int
        let x: Double
        let y: Int
        let width: Double
    }

    struct Lane {
        let title: String
        let top: Int
        var frames: [Frame]
    }

    static let margin = 10
    static let rowHeight = 18
    static let plotWidth = 1180

    let width = margin * 2 + plotWidth
    var height = 0
    var axisTop = 0
    let title: String
    var lanes: [Lane] = []
    var ticks: [(x: Int, label: String)] = []

    init(_ profile: StartupProfile) {
        let instances = profile.instances
        let threads = instances.count
        title =
            "Startup profile: \(threads) instance\(threads == 1 ? "" : "s") in "
            + StartupProfile.milliseconds(profile.durationNanoseconds)
        let span = Double(
            max(
                profile.durationNanoseconds,
                instances.map { $0.startNanoseconds + $0.durationNanoseconds }
                    .max() ?? 1, 1))
        let scale = Double(Self.plotWidth) / span
        // Depth on its own thread: frames stand on their parent's when it ran on the same thread.
        var depth = [Int](repeating: 0, count: instances.count)
        for instance in instances {
            if let parent = instance.parent, instances[parent].thread == instance.thread {
                depth[instance.id] = depth[parent] + 1
            }
        }
        var order: [Int] = []
        for instance in instances.sorted(by: { ($1.isMainThread ? 1 : 0, $0.id) < ($0.isMainThread ? 1 : 0, $1.id) })
        where !order.contains(instance.thread) {
            order.append(instance.thread)
        }
        var top = 40
        for thread in order {
            let members = instances.filter { $0.thread == thread }
            let rows = (members.map { depth[$0.id] }.max() ?? 0) + 1
            let bottom = top + 20 + rows * Self.rowHeight
            let name = members[0].isMainThread ? "main thread" : "thread \(thread)"
            var lane = Lane(
                title: "\(name): \(members.count) instance\(members.count == 1 ? "" : "s")", top: top,
                frames: [])
            for instance in members {
                lane.frames.append(
                    Frame(
                        instance: instance.id,
                        x: Double(Self.margin) + Double(instance.startNanoseconds) * scale,
                        y: bottom - (depth[instance.id] + 1) * Self.rowHeight,
                        width: max(Double(instance.durationNanoseconds) * scale, 0.5)))
            }
            lanes.append(lane)
            top = bottom + 10
        }
        axisTop = top
        height = top + 30
        ticks = Self.ticks(span: span, scale: scale)
    }

    /// Time marks at a round step, five to ten across the plot.
    static func ticks(span: Double, scale: Double) -> [(x: Int, label: String)] {
        var step: Double = 1_000  // nanoseconds
        while span / step > 10 {
            if span / (step * 2) <= 10 {
                step *= 2
                break
            }
            if span / (step * 5) <= 10 {
                step *= 5
                break
            }
            step *= 10
        }
        var marks: [(x: Int, label: String)] = []
        var at = 0.0
        while at <= span {
            marks.append((x: margin + Int((at * scale).rounded()), label: StartupProfile.milliseconds(UInt64(at))))
            at += step
        }
        return marks
    }
}
