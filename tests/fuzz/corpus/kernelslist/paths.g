MemcpyHtoD,0x00007f4a1e000000,256
/abs/run/kernel-1.traceg
../other/kernel-2.traceg.xz
# kernel-3.traceg skipped
sub/k4.traceg
MemcpyDtoH,0x00007f4a1e000000,256
kernel-5-ctx_0x1.traceg
