MemcpyHtoD,0x00007f4a1e000000,256
kernel-9.traceg
