import Foundation

extension SchemaField {
    /// A change of a field between two schemas, judged for an app built against the old one:
    /// breaking when that app fails to decode the new value or shows wrong text, with the reason.
    struct Change: Equatable {
        var breaking: Bool
        /// `changed type from percent to number: …`, after "field 'share' of 'card' ".
        var text: String
    }

    /// How the field changed from `self` (old) to `new`; nil when an app cannot tell.
    func change(to new: SchemaField) -> Change? {
        // A schema without declared types is compared by JSON shape alone.
        let old = declared == nil || new.declared == nil ? SchemaField(shape: shape, values: values) : self
        let new = declared == nil || new.declared == nil ? SchemaField(shape: new.shape, values: new.values) : new
        guard old.type == new.type else { return old.typeChange(to: new) }
        guard old.format != new.format else { return nil }
        return Change(
            breaking: false,
            text: "changed format from \(old.format ?? "the default") to \(new.format ?? "the default"): "
                + "an app built for the old schema shows the same value, worded by the new format")
    }

    private init(shape: Shape, values: [String]?) {
        self.shape = shape
        self.values = values
        declared = values == nil ? nil : "enum"
    }

    private func typeChange(to new: SchemaField) -> Change {
        let changed = "changed type from \(type) to \(new.type): "
        if let values, new.values == nil {
            // Generated Swift and TypeScript decode an enum as its values only.
            return Change(breaking: true, text: changed + "an app built for the old schema fails to decode it (it expects one of \(Shape.list(values)), and gets any text)")
        }
        guard shape.decodes(new.shape) else {
            return Change(breaking: true, text: changed + "an app built for the old schema fails to decode it (it expects \(shape.description), and gets \(new.shape.description))")
        }
        let still = "an app built for the old schema still decodes it and shows it rightly"
        switch (type, new.type) {
        case ("markdown", "inline-markdown"):
            return Change(breaking: false, text: changed + still + " (inline HTML shows where block HTML did)")
        case ("text", "enum"):
            return Change(breaking: false, text: changed + still + " (text, now one of \(Shape.list(new.values ?? [])))")
        default:
            let was = Self.meanings[type] ?? type, now = Self.meanings[new.type] ?? new.type
            return Change(breaking: true, text: changed + "an app built for the old schema decodes it but shows wrong text (it was \(was), and is \(now))")
        }
    }
}
