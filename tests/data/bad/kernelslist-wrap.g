MemcpyHtoD,0xffffffffffffff00,4096
kernel-1.traceg
