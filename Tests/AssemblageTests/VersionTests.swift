import Testing
import Assemblage

@Test func versionIsSemantic() {
    #expect(assemblageVersion.split(separator: ".").count == 3)
}
