// Intentionally empty: this target exists so that the documentation package depends on the libraries it documents.
import Assemblage
import AssemblageProperties
import AssemblageScenes
