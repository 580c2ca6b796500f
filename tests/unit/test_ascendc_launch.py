"""The AscendC source rewrites (simulator/ascendc/launch.py): `<<<>>>` launches, `__ubuf__` local
arrays, comment/string blanking. Every rewrite keeps every line where it was."""

import pytest

from simulator.ascendc.build import parse_depfile
from simulator.ascendc.launch import RewriteError, blank, definition_line, rewrite

H = 'pipev::launch_named(__FILE__, __LINE__, '


def K(name: str) -> str:
    """How the rewrite passes kernel NAME: called through a lambda (a kernel named like a libc
    function, the vendor's `select`, is an overload set, not a value: issue 34)."""
    return f"[&](auto... pipev_a_) {{ {name}(pipev_a_...); }}"


def rw(text: str) -> str:
    out = rewrite(text)
    assert out.count("\n") == text.count("\n"), out
    return out


@pytest.mark.parametrize("src, want", [
    ("add_custom<<<8, nullptr, stream>>>(x, y, z);",
     H + '"add_custom", "x, y, z", 8, ' + K("add_custom") + ', x, y, z);'),
    ("select_custom<float, uint8_t, 256, 256, 8><<<blockDim, nullptr, stream>>>(a, b);",
     H + '"select_custom<float, uint8_t, 256, 256, 8>", "a, b", blockDim, '
     + K("select_custom<float, uint8_t, 256, 256, 8>") + ", a, b);"),
    ("ns::kernel<<<1, 0, 0>>>();", H + '"ns::kernel", nullptr, 1, ' + K("ns::kernel") + ");"),
    ("::k<<<1, 0, 0>>>(p);", H + '"::k", "p", 1, ' + K("::k") + ', p);'),
    ("a::b::k <<< n , l2 , s >>> ( p );", H + '"a::b::k", "p",  n , ' + K("a::b::k") + ',  p );'),
    ("k<(a>b)><<<1,0,0>>>(x);", H + '"k<(a>b)>", "x", 1, ' + K("k<(a>b)>") + ', x);'),
    ("ns<int>::k<T<U>><<<1,0,0>>>(x);",
     H + '"ns<int>::k<T<U>>", "x", 1, ' + K("ns<int>::k<T<U>>") + ', x);'),
    ("k<<<f(a, b), 0, 0>>>(g(\")\"), ')');",
     H + "\"k\", \"g(\\\" \\\"), ' '\", f(a, b), " + K("k") + ", g(\")\"), ')');"),
    ("k<<<dims[0], 0, 0>>>(v[1], {1, 2});",
     H + '"k", "v[1], {1, 2}", dims[0], ' + K("k") + ', v[1], {1, 2});'),
    ("k<<<1>>>(x);", H + '"k", "x", 1, ' + K("k") + ', x);'),
    ("int n = 1'000'000; k<<<n, 0, 0>>>(p);",
     "int n = 1'000'000; " + H + '"k", "p", n, ' + K("k") + ', p);'),
    ("if (x) k<<<1,0,0>>>(p); else m<<<2,0,0>>>(q);",
     "if (x) " + H + '"k", "p", 1, ' + K("k") + ', p); else ' + H + '"m", "q", 2, '
     + K("m") + ', q);'),
])
def test_launch_shapes(src, want):
    assert rw(src) == want


def test_launches_in_comments_and_strings_stay():
    src = ('// k<<<1, 0, 0>>>(x);\n/* k<<<1>>>()\n */ auto s = "k<<<1,0,0>>>(x)";\n'
           "char c = '<'; auto r = R\"x( k<<<1>>>() )x\"; k<<<1, 0, 0>>>(s);\n")
    out = rw(src)
    assert out.count("pipev::launch") == 1
    assert out.startswith('// k<<<1, 0, 0>>>(x);\n/* k<<<1>>>()\n */ auto s = "k<<<1,0,0>>>(x)";')
    assert out.endswith(H + '"k", "s", 1, ' + K("k") + ', s);\n')


def test_multi_line_launch_keeps_the_arguments_on_their_lines():
    src = "x;\nkernel\n<<<\nblocks, nullptr,\n stream>>>(\n  a,\n  b);\nint after;\n"
    out = rw(src)
    lines = out.split("\n")
    assert lines[1].startswith(H + '"kernel", ')
    assert lines[5] == "  a," and lines[6] == "  b);" and lines[7] == "int after;"


def test_a_file_without_launches_or_arrays_is_unchanged():
    src = "#include <x>\nint a = b << 2; int c = d >> 3; // <<< in a comment\n"
    assert rewrite(src) is src or rewrite(src) == src
    assert rewrite("std::cout << x <<\n y;") == "std::cout << x <<\n y;"


def test_a_kernels_extern_c_is_dropped_and_nothing_elses():
    src = ('extern "C" __global__ __aicore__ void div(GM_ADDR x) {}\n'
           'extern "C"\n__global__ void k2();\nextern "C" void host(int);\n'
           'extern "C" { int c_api(int); }\nconst char* s = "extern \\"C\\" __global__";\n')
    out = rewrite(src)
    assert len(out) == len(src) and out.count("\n") == src.count("\n")
    assert out.splitlines()[0] == " " * 11 + "__global__ __aicore__ void div(GM_ADDR x) {}"
    assert out.splitlines()[1].strip() == "" and "__global__ void k2();" in out
    assert 'extern "C" void host(int);' in out and 'extern "C" { int c_api' in out
    assert out.splitlines()[-1] == src.splitlines()[-1]  # (a string's text stays)


@pytest.mark.parametrize("src, line, col, why", [
    ("x;\n  <<<1, 0, 0>>>(p);", 2, 3, "no kernel name before <<<"),
    ("k<<<1, 0, 0(p);", 1, 2, "no matching >>>"),
    ("k<<<1, 0, 0>>> p;", 1, 2, "no argument list after >>>"),
    ("k<<<1, 2, 3, 4>>>(p);", 1, 2, "takes blockDim, l2ctrl, stream; got 4 parts"),
    ("k<<< , 0, 0>>>(p);", 1, 2, "no blockDim"),
    ("\n\n    k<<<1, 0, 0>>>(p;\n", 3, 6, "no closing parenthesis"),
    ("f(1) <<<1,0,0>>>(p);", 1, 6, "no kernel name"),
])
def test_unparseable_launches_say_where(src, line, col, why):
    with pytest.raises(RewriteError) as e:
        rewrite(src)
    assert (e.value.line, e.value.col) == (line, col)
    assert e.value.message.startswith("cannot parse this kernel launch")
    assert why in e.value.message


def test_ubuf_local_arrays_become_references_into_ub():
    src = ("  __ubuf__ half buf[256];\n__ubuf__ half *p = q;\nvoid f(__ubuf__ float *x);\n"
           "__ubuf__ unsigned int a[4][8], b[2];\n__ubuf__ AscendC::half c[N * sizeof(T)];\n")
    out = rw(src).split("\n")
    assert out[0] == "  auto &buf = ::pipev::ubuf_array<half [256]>(\"buf\");"
    assert out[1] == "__ubuf__ half *p = q;" and out[2] == "void f(__ubuf__ float *x);"
    assert out[3] == ("auto &a = ::pipev::ubuf_array<unsigned int [4][8]>(\"a\"); "
                      "auto &b = ::pipev::ubuf_array<unsigned int [2]>(\"b\");")
    assert out[4] == "auto &c = ::pipev::ubuf_array<AscendC::half [N*sizeof(T)]>(\"c\");"


def test_ubuf_arrays_over_lines_and_in_comments():
    assert rw("// __ubuf__ half x[4];\n") == "// __ubuf__ half x[4];\n"
    out = rw("__ubuf__ half\n  x[16];\nint y;")
    assert out == "auto &x = ::pipev::ubuf_array<half [16]>(\"x\");\n\nint y;"


def test_ubuf_array_with_an_initializer_is_an_error():
    with pytest.raises(RewriteError) as e:
        rewrite("int a;\n  __ubuf__ int t[2] = {1, 2};")
    assert (e.value.line, e.value.col) == (2, 3)
    assert "initializer" in e.value.message


def test_blank_keeps_length_and_newlines():
    src = 'a // c1\nb /* c2\n c3 */ "s\\"t" \'x\' R"d(raw\n)d" 0x1\'2 e'
    b = blank(src)
    assert len(b) == len(src) and b.count("\n") == src.count("\n")
    assert "c1" not in b and "c2" not in b and "c3" not in b and "raw" not in b
    assert b.endswith("0x1'2 e") and '"    "' in b


def test_definition_line_finds_the_kernel():
    src = "#include <x>\n// void add(\nextern \"C\" __global__ __aicore__ void add(GM_ADDR x)\n{}"
    assert definition_line(src, "add") == 3
    assert definition_line(src, "ns::add<float>") == 3
    assert definition_line(src, "other") == 1


def test_depfile_parsing():
    text = ("out.so: /a/b.cpp /inc/kernel_operator.h \\\n /my\\ dir/x.h \\\n  $$HOME.h\n"
            "/inc/kernel_operator.h:\n")
    assert parse_depfile(text) == ["/a/b.cpp", "/inc/kernel_operator.h", "/my dir/x.h",
                                   "$HOME.h"]
