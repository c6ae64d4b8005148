import Vapor
import VaporTodoCore

// Vapor's own command line: `vapor-todo serve --hostname 127.0.0.1 --port 8080` (the default).
var environment = try Environment.detect()
try LoggingSystem.bootstrap(from: &environment)
let app = try await Application.make(environment)
do {
    try configure(app)
    try await app.execute()
} catch {
    app.logger.report(error: error)
    try? await app.asyncShutdown()
    throw error
}
// Shuts the container down too: the audit log is flushed, then the store is closed.
try await app.asyncShutdown()
