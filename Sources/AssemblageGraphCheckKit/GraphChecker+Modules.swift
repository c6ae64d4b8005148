extension GraphChecker {
    /// A module that registers one key twice: the second registration silently replaces the first.
    mutating func checkDuplicates() {
        for module in modules.sorted() {
            let registrations = (registrationsByModule[module] ?? []).filter { registration in
                registration.kind != .collectionElement && !registration.inLoop && !registration.contributed
                    && registration.key.type != nil
                    && registration.key.name != .unknown && registration.key.arity != nil
            }
            for (index, later) in registrations.enumerated() {
                guard
                    let earlier = registrations[..<index].first(where: { earlier in
                        match(earlier.key, later.key) == .yes && !exclusiveBranches(earlier.placement, later.placement)
                    })
                else { continue }
                report(
                    .error, .duplicateRegistration, at: later.placement,
                    "\(display(module)) registers \(later.key) twice: here and at "
                        + "\(earlier.placement.location.short). The later registration replaces the earlier one at run "
                        + "time; remove one, or give them different names."
                )
            }
        }
    }

    /// A `replaces` module must register every key of the module it replaces, or the modules that depend on
    /// the replaced one fail to resolve it.
    mutating func checkReplacements() {
        for list in facts.moduleLists where list.kind == .replaces {
            guard let replacementModule = moduleName(list.typeName) else { continue }
            let replacement = display(replacementModule)
            for entry in list.entries {
                guard let replaced = moduleName(entry.type) else {
                    report(
                        .note, .notChecked, at: entry.placement,
                        "\(replacement) replaces \(entry.type.name), whose source is not visible; whether it "
                            + "registers the same keys is checked by validate() at run time."
                    )
                    continue
                }
                var missingKeys: [String] = []
                for registration in registrationsByModule[replaced] ?? []
                where registration.kind != .collectionElement
                    && registration.key.type != nil && registration.key.name != .unknown
                {
                    let found = lookup(registration.key, from: replacementModule)
                    let text = "\(registration.key) (\(registration.placement.location.short))"
                    if found.winners.isEmpty, found.maybe.isEmpty,
                        !missingKeys.contains(where: { $0.hasPrefix("\(registration.key) (") })
                    {
                        missingKeys.append(text)
                    }
                }
                guard !missingKeys.isEmpty else { continue }
                let replacedName = display(replaced)
                let message =
                    "\(replacement) replaces \(replacedName) but does not register "
                    + missingKeys.joined(separator: ", ") + ", which \(replacedName) registers: modules that depend on "
                    + "\(replacedName) would fail to resolve " + (missingKeys.count == 1 ? "it." : "them.")
                if let reason = openReasons[replacementModule] {
                    report(
                        .note, .notChecked, at: entry.placement,
                        "May fail at run time: \(message) Not an error "
                            + "because \(reason); validate() checks it at run time.")
                } else {
                    report(.error, .replacementMissingKey, at: entry.placement, message)
                }
            }
        }
    }

    /// A decorator whose type nothing visible registers never runs.
    mutating func checkDecorators() {
        for decorator in facts.decorators {
            guard let type = decorator.key.type else { continue }
            let registered = facts.registrations.contains { registration in
                registration.key.type.map { sameType($0, type) } ?? false
            }
            if !registered {
                report(
                    .note, .notChecked, at: decorator.placement,
                    "No visible code registers \(type), so this "
                        + "decorator may never run; unmatchedDecorators() reports it at run time.")
            }
        }
    }
}
