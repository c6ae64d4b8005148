import Assemblage
import Foundation

/* A block comment: container.register(Fake.self) { r in try r.require(Missing.self) }
   /* nested: r.require(AlsoMissing.self) */ still a comment: r.require(Missing.self) */

// container.register(Commented.self) { r in try r.require(Missing.self) }

/// Documentation: `try resolver.require(DocMissing.self)`
typealias Store = KeyValueStore
enum Outer { struct Inner: Sendable {} }
struct Box<Value: Sendable>: Sendable { let value: Value }

struct CorpusAssembly: Assembly {
    func assemble(container: Container) {
        let banner = "resolve(Missing.self) \(container.resolve(Clock.self) != nil) \("x \("r.require(Deep.self)")")"
        let raw = #"r.require(Missing.self) "quoted" \(not interpolated) \#(banner.count)"#
        let multi = """
            container.register(Ghost.self) { r in try r.require(Missing.self) }
            \(banner.count) "quotes" \"""
            """
        let pattern = #/resolve\((\w+)\.self\)/#
        let slash = /require\(/
        let ratio = 3 / 2
        container.register(KeyValueStore.self) { _ in InMemoryStore() }
        container.register(Repo.self) { r in Repo(store: try r.require(Store.self)) }
        container.register(Outer.Inner.self) { _ in Outer.Inner() }
        container.register(Consumer.self) { r in Consumer(inner: try r.require(Outer.Inner.self)) }
        container.register(Box<Int>.self) { _ in Box(value: 1) }
        container.register(Pair<String, [Int]>.self) { _ in Pair() }
        container.register(Holder.self) { r in
            let box = try r.require(Box<Int>.self)
            let pair = try r.require(Pair<String, Array<Int>>.self)
            let optional = try r.require(Optional<Box<Int>>.self)
            let fallback: Clock = r.resolve(Clock.self) ?? SystemClock()
            return Holder(box: box, pair: pair, optional: optional, fallback: fallback,
                          label: "\(banner) \(raw) \(multi) \(pattern) \(slash) \(ratio) \(r.resolve(Nothing.self)!)")
        }
        container.register(Clock.self) { _ in SystemClock() }
        container.autoregister(Autowired.self, initializer: Autowired.init)
        container.autoregister(initializer: Inferred.init)
        container.autoregister(Keyed.self, name: "k", argument: String.self, initializer: Keyed.init)
        container.autoregister(Paired.self, arguments: String.self, Int.self, initializer: Paired.init)
        container.register(UsesAutowired.self) { r in
            UsesAutowired(autowired: try r.require(Autowired.self), inferred: try r.require(Inferred.self),
                          keyed: try r.require(Keyed.self, name: "k", argument: "x"),
                          paired: try r.require(Paired.self, arguments: "x", 1))
        }
        #if os(Linux)
        container.register(Platform.self) { _ in LinuxPlatform() }
        #elseif os(macOS)
        container.register(Platform.self) { _ in MacPlatform() }
        #else
        container.register(Platform.self) { _ in OtherPlatform() }
        #endif
        container.register(Platformed.self) { r in Platformed(platform: try r.require(Platform.self)) }
        container.register(Multi.self) { [banner] (resolver: Resolver, count: Int) -> Multi in
            let values = (0..<count).map { index in
                "item \(index): \(banner)"
            }
            return Multi(values: values, clock: try resolver.require(Clock.self))
        }
        container.register(Short.self) { Short(clock: try $0.require(Clock.self)) }
        container.register(`Protocol`.self) { _ in Impl() }
        container.register(Looping.self) { r in
            for item in [1, 2] where item > 0 { print(item) }
            return Looping(value: try r.require(`Protocol`.self))
        }
        container.register(any Swift.Sendable.self, name: "any") { _ in 1 }
        container.register(Anything.self) { r in Anything(value: try r.require((any Sendable).self, name: "any")) }
        UserDefaults.standard.register(defaults: ["a": 1])
        promise.resolve(value)
        let wrapped = Swift.Optional<Int>.none
        print(wrapped as Any)
    }
}

func lookUp<Service: Sendable>(_ container: Container, _ type: Service.Type) -> Service? {
    container.resolve(Service.self)   // expect: note notChecked
}

struct GenericAssembly<Service: Sendable>: Assembly {
    let make: @Sendable () -> Service
    func assemble(container: Container) {
        let make = self.make
        container.register(Service.self) { _ in make() }   // expect: note notChecked
        container.register(Wrapper<Service>.self) { r in Wrapper(try r.require(Service.self)) }   // expect: note notChecked
    }
}

extension Container {
    func registerDefaults() {
        register(Defaults.self) { _ in Defaults() }
    }
}

func main() throws {
    let defaults = try Container().require(Defaults.self)
    print(defaults)
}

func dynamicType(container: Container, value: some Sendable) {
    let type = Clock.self
    _ = try? container.require(type.self)   // expect: note notChecked
    _ = container.resolve(type(of: value).self)   // expect: note notChecked
}
