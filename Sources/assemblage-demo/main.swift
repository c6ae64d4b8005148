import Assemblage
print("assemblage-demo \(assemblageVersion)")
