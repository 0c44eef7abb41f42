// The target's one function is `static inline`, in its header.
