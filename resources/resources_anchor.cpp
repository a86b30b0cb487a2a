// Anchor translation unit: the resources are linked in through this library.
