MemcpyHtoD,0x00007f4a1e000000,4000
kernel-1.traceg.xz
kernel-2.traceg.xz
kernel-3.traceg
