package pulid

// PrefixBinEntry starts a trash-bin entry's id (tbe_ + 18 hex characters
// that sort in creation order, like the real service's).
const PrefixBinEntry = "tbe_"
