import Assemblage

protocol Animal { var name: String { get } }
final class Cat: Animal { let name: String; init(name: String) { self.name = name } }
final class Owner { let pet: Animal; weak var back: Owner?; init(pet: Animal) { self.pet = pet } }

let c = Container()
c.register(Animal.self) { _ in Cat(name: "Mimi") }
c.register { r in Owner(pet: r.resolve(Animal.self)!) }
c.register(Animal.self) { _, name in Cat(name: name) }
c.register(Animal.self) { (_, name: String, age: Int) in Cat(name: "\(name)\(age)") }
c.register(Animal.self, name: "tom") { _ in Cat(name: "Tom") }.inObjectScope(.container)
print(c.resolve(Animal.self)!.name, c.resolve(Owner.self)!.pet.name, c.resolve(Animal.self, argument: "Arg")!.name, c.resolve(Animal.self, arguments: "X", 3)!.name)
print(c.resolve(Animal.self, name: "tom")! as AnyObject === c.resolve(Animal.self, name: "tom")! as AnyObject)
do { _ = try c.require(Animal.self, name: "nope") } catch { print(error) }
c.register(A.self) { r in A(b: try r.require(B.self)) }
c.register(B.self) { r in B(a: try r.require(A.self)) }
do { _ = try c.require(A.self) } catch { print(error) }
final class A { init(b: B) {} }
final class B { init(a: A) {} }
print(c.resolve(Lazy<Animal>.self)!.instance.name, c.resolve(Provider<Animal>.self)!.instance.name, c.resolve(Optional<Animal>.self)!!.name)
print(c)
