kernel-1.traceg
kernel-9.traceg
