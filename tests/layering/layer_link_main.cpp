// Links one daemon layer whole with the layers below it and nothing more
// (tests/CMakeLists.txt): building this is the check, it never runs.
int main() {
  return 0;
}
