import Assemblage
import Testing

/// A scoped instance inside one resolution graph: siblings, `initCompleted` steps and cycles through steps all see
/// the one instance the scope holds.
@Suite struct ScopeGraphTests {
    final class Session: @unchecked Sendable {
        var again: Session?
    }

    final class Owner: @unchecked Sendable {
        let member: Member
        init(member: Member) { self.member = member }
    }

    final class Member: @unchecked Sendable {
        weak var owner: Owner?
    }

    final class Pair: @unchecked Sendable {
        let left: Side, right: Side
        init(left: Side, right: Side) { (self.left, self.right) = (left, right) }
    }

    final class Side: @unchecked Sendable {
        let session: Session
        init(session: Session) { self.session = session }
    }

    @Test func aScopedStepThatResolvesItsOwnServiceGetsTheInstanceBeingCompleted() throws {
        let container = Container()
        container.register(Session.self) { _ in Session() }
            .initCompleted { r, session in session.again = r.resolve(Session.self) }
            .inObjectScope(.scoped)
        let scope = container.makeScope()
        let session = try scope.require(Session.self)
        #expect(session.again === session)
        #expect(try scope.require(Session.self) === session)
        session.again = nil
        try scope.endSynchronously()
    }

    @Test func aCycleThroughAStepClosesOnTheScopedInstances() throws {
        let container = Container()
        container.register(Owner.self) { r in Owner(member: try r.require(Member.self)) }.inObjectScope(.scoped)
        container.register(Member.self) { _ in Member() }
            .initCompleted { r, member in member.owner = r.resolve(Owner.self) }
            .inObjectScope(.scoped)
        let scope = container.makeScope()
        let owner = try scope.require(Owner.self)
        #expect(owner.member.owner === owner)
        #expect(try scope.require(Member.self) === owner.member)
        try scope.endSynchronously()
    }

    @Test(arguments: [ObjectScope.graph, .transient])
    func siblingsInOneResolveShareTheScopedInstance(holder: ObjectScope) throws {
        let container = Container()
        container.register(Session.self) { _ in Session() }.inObjectScope(.scoped)
        container.register(Side.self) { r in Side(session: try r.require(Session.self)) }.inObjectScope(holder)
        container.register(Pair.self) { r in Pair(left: try r.require(Side.self), right: try r.require(Side.self)) }
        let scope = container.makeScope()
        let pair = try scope.require(Pair.self)
        #expect(pair.left.session === pair.right.session)
        #expect((pair.left === pair.right) == (holder === ObjectScope.graph))
        #expect(try scope.require(Session.self) === pair.left.session)
        let other = container.makeScope()
        #expect(try other.require(Pair.self).left.session !== pair.left.session)
        try scope.endSynchronously()
        try other.endSynchronously()
    }
}
