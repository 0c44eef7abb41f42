/// The package's version, as `tessera --version` and
/// `tessera-server --version` print it.
package enum TesseraVersion {
    package static let current = "0.9.0"
}
