// vecadd: a small CUDA project built for NVIDIA and AMD by hipgen.
// A library of kernels, a demo binary and a self-checking test.
local warnings = ['-Wall'];
{
  name: 'vecadd',
  cuda: { archs: ['sm_80', 'sm_90'] },
  rocm: { archs: ['gfx90a', 'gfx1030'] },
  translate: { out: 'hip' },
  targets: [
    {
      name: 'vecadd',
      kind: 'library',
      srcs: ['csrc/**/*.cu'],
      hdrs: ['csrc/**/*.cuh'],
      includes: ['csrc'],
      cxx_flags: warnings,
    },
    {
      name: 'vecadd_demo',
      kind: 'binary',
      srcs: ['apps/vecadd_main.cu'],
      deps: ['vecadd'],
    },
    {
      name: 'vecadd_test',
      kind: 'test',
      srcs: ['tests/vecadd_test.cu'],
      deps: ['vecadd'],
    },
  ],
}
