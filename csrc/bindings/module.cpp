// `import dsv4ext._C` loads this library, whose static initialisers register the ops. There is no
// Python-level API here, so the module is empty and needs no pybind11.
#include <Python.h>

PyMODINIT_FUNC PyInit__C(void) {
  static PyModuleDef module = {PyModuleDef_HEAD_INIT, "_C", "dsv4ext op registrations", -1, nullptr};
  return PyModule_Create(&module);
}
