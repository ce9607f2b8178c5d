// Declares nothing for Swift: the C side only supplies the entry point (see FuzzEntry.c).
