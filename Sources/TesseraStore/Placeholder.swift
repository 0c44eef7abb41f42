public enum TesseraStoreVersion { public static let schema = 0 }
