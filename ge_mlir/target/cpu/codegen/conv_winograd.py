"""Winograd F(2x2, 3x3) convolutions (:func:`conv_to_winograd`): the filter transformed at
compile time, per pair of output rows the input transform as vector code, 16 register-tile
matmuls per filter panel and the output transform stored transposed through the epilogue."""

from __future__ import annotations

import numpy as np
from mlir import ir
from mlir.dialects import tensor

from .common import array_constant, conv_operands, index_plus, near_equal_runs, replace_rewritten, tile_runs
from .conv_rows import over_row_blocks, transposed_tile_conv
from .epilogue import store_rows_transposed
from .strategy import PARALLEL_MIN_MACS

__all__ = ["conv_to_winograd"]


#: Winograd F(2x2, 3x3): input transform B^T (rows), filter transform G, output transform A^T.
_WINOGRAD_G = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.5], [0.5, -0.5, 0.5], [0.0, 0.0, 1.0]])


class _Winograd:
    """The IR builders of one Winograd convolution, called per row pair in this order:
    :meth:`input_transform`, then per filter panel :meth:`products` and :meth:`output_transform`
    (:meth:`row_pairs` loops over them)."""

    def __init__(self, op: ir.Operation, x: ir.Value, epilogue: ir.Operation | None, tile_m: int, tile_n: int):
        xt, ot = ir.RankedTensorType(x.type), ir.RankedTensorType(op.results[0].type)
        self.op, self.x, self.epilogue, self.tile_m = op, x, epilogue, tile_m
        self.c = xt.shape[1]
        self.tw = ot.shape[3] // 2
        self.elem = xt.element_type
        self.index = ir.IndexType.get()
        self.dyn = ir.ShapedType.get_dynamic_stride_or_offset()
        # Vectors of tiles of the input transform: the last overlaps the one before.
        self.vl = min(max(1, tile_n // 2), 1 << (self.tw.bit_length() - 1))
        self.starts = list(range(0, self.tw - self.vl + 1, self.vl))
        if self.starts[-1] != self.tw - self.vl:
            self.starts.append(self.tw - self.vl)
        self.minor3 = ir.AffineMap.get(3, 0, [ir.AffineDimExpr.get(2)])
        self.minor4 = ir.AffineMap.get(4, 0, [ir.AffineDimExpr.get(3)])
        #: Set under the insertion point: the padding zero, and (first filter, tn, panels, U of
        #: those filters as [panel, 16, C, tn]) per column part.
        self.zero: ir.Value | None = None
        self.chunks: list[tuple[int, int, int, ir.Value]] = []

    def const(self, v: int) -> ir.Value:
        from mlir.dialects import arith

        return arith.constant(self.index, v)

    def vzero(self, lanes: int) -> ir.Value:
        from mlir.dialects import arith

        vt = ir.VectorType.get([lanes], self.elem)
        return arith.constant(vt, ir.DenseElementsAttr.get_splat(vt, ir.FloatAttr.get(self.elem, 0.0)))

    def filter_panels(self, warr: np.ndarray, tile_n: int) -> None:
        """The filter transformed at compile time (``U = G g G^T``) as one constant per column part."""
        c, f = self.c, warr.shape[0]
        u = np.einsum("ai,fcij,bj->abcf", _WINOGRAD_G, warr.astype(np.float64), _WINOGRAD_G).reshape(16, c, f)
        self.chunks = [(col0, tn, panels, array_constant(np.ascontiguousarray(
            u[:, :, col0:col0 + panels * tn].reshape(16, c, panels, tn).transpose(2, 0, 1, 3).astype(np.float32)),
            self.elem, "winograd_filter_panels")) for col0, tn, panels in tile_runs(f, tile_n)]

    def input_transform(self, vbuf: ir.Value, ty: ir.Value) -> ir.Value:
        """V[16, C, tiles] of the row pair ``ty``."""
        from mlir.dialects import arith, scf, vector

        const, vl, elem = self.const, self.vl, self.elem
        loop = scf.ForOp(const(0), const(self.c), const(1), [vbuf])
        with ir.InsertionPoint(loop.body):
            ch = loop.induction_variable
            cur = loop.inner_iter_args[0]
            top = arith.muli(ty, const(2))
            rows = [top] + [arith.addi(top, const(i)) for i in (1, 2, 3)]
            wide = ir.VectorType.get([2 * vl], elem)
            even, odd = list(range(0, 2 * vl, 2)), list(range(1, 2 * vl, 2))
            for tx0 in self.starts:
                d = []
                for r in rows:
                    lo = vector.transfer_read(wide, self.x, [const(0), ch, r, const(2 * tx0)], self.minor4, self.zero,
                                              [True])
                    hi = vector.transfer_read(wide, self.x, [const(0), ch, r, const(2 * tx0 + 2)], self.minor4,
                                              self.zero, [True])
                    d.append([vector.shuffle(lo, lo, even), vector.shuffle(lo, lo, odd),
                              vector.shuffle(hi, hi, even), vector.shuffle(hi, hi, odd)])
                t = [[arith.subf(d[0][j], d[2][j]) for j in range(4)], [arith.addf(d[1][j], d[2][j]) for j in range(4)],
                     [arith.subf(d[2][j], d[1][j]) for j in range(4)], [arith.subf(d[1][j], d[3][j]) for j in range(4)]]
                for a in range(4):
                    v = [arith.subf(t[a][0], t[a][2]), arith.addf(t[a][1], t[a][2]),
                         arith.subf(t[a][2], t[a][1]), arith.subf(t[a][1], t[a][3])]
                    for b in range(4):
                        cur = vector.transfer_write(cur.type, v[b], cur, [const(4 * a + b), ch, const(tx0)],
                                                    self.minor3, [True])
            scf.YieldOp([cur])
        return loop.results[0]

    def products(self, mbuf: ir.Value, vbuf: ir.Value, p: ir.Value, f0: ir.Value, uconst: ir.Value,
                 tn: int) -> ir.Value:
        """M[16, tiles, f0:f0 + tn] = V[xi]^T U[xi] for filter panel ``p`` (filters f0..)."""
        from mlir.dialects import scf, vector

        const, elem = self.const, self.elem
        xis = scf.ForOp(const(0), const(16), const(1), [mbuf])
        with ir.InsertionPoint(xis.body):
            xi = xis.induction_variable
            cur = xis.inner_iter_args[0]
            for first, tm, count in near_equal_runs(self.tw, self.tile_m):
                run = scf.ForOp(const(first), const(first + tm * count), const(tm), [cur])
                with ir.InsertionPoint(run.body):
                    t0 = run.induction_variable
                    k = scf.ForOp(const(0), const(self.c), const(1), [self.vzero(tn)] * tm)
                    with ir.InsertionPoint(k.body):
                        ch = k.induction_variable
                        vt = ir.VectorType.get([tn], elem)
                        b = vector.transfer_read(vt, uconst, [p, xi, ch, const(0)], self.minor4, self.zero, [True])
                        rows = [vector.fma(vector.broadcast(vt, tensor.extract(vbuf, [xi, ch, index_plus(t0, i)])),
                                           b, r) for i, r in enumerate(k.inner_iter_args)]
                        scf.YieldOp(rows)
                    m = run.inner_iter_args[0]
                    for i, r in enumerate(k.results):
                        m = vector.transfer_write(m.type, r, m, [xi, index_plus(t0, i), f0], self.minor3, [True])
                    scf.YieldOp([m])
                cur = run.results[0]
            scf.YieldOp([cur])
        return xis.results[0]

    def output_transform(self, whole: ir.Value, mbuf: ir.Value, f0: ir.Value, ty: ir.Value, local: ir.Value,
                         tn: int) -> ir.Value:
        """The two output rows of row pair ``ty`` of filters f0.. from M, through the epilogue,
        stored at row pair ``local`` of ``whole``."""
        from mlir.dialects import arith, scf, vector

        const, dyn = self.const, self.dyn
        vt = ir.VectorType.get([tn], self.elem)
        for first, q, count in near_equal_runs(self.tw, 4):
            run = scf.ForOp(const(first), const(first + q * count), const(q), [whole])
            with ir.InsertionPoint(run.body):
                t0 = run.induction_variable
                cur = run.inner_iter_args[0]
                out_rows: list[list[ir.Value]] = [[], []]
                for k in range(q):
                    mm = [vector.transfer_read(vt, mbuf, [const(xi), index_plus(t0, k), f0], self.minor3, self.zero,
                                               [True]) for xi in range(16)]
                    s0 = [arith.addf(arith.addf(mm[b], mm[4 + b]), mm[8 + b]) for b in range(4)]
                    s1 = [arith.subf(arith.subf(mm[4 + b], mm[8 + b]), mm[12 + b]) for b in range(4)]
                    for i, s_ in enumerate((s0, s1)):
                        out_rows[i].append(arith.addf(arith.addf(s_[0], s_[1]), s_[2]))
                        out_rows[i].append(arith.subf(arith.subf(s_[1], s_[2]), s_[3]))
                x0 = arith.muli(t0, const(2))
                for i in range(2):
                    oy = index_plus(arith.muli(ty, const(2)), i)
                    dy = index_plus(arith.muli(local, const(2)), i)
                    stored = store_rows_transposed(out_rows[i], tn, cur, self.epilogue, self.op.results[0],
                                                   [0, f0, oy, x0], [0, f0, dy, x0])
                    cur = tensor.insert_slice(stored, cur, [f0, dy, x0], [], [], [0, dyn, dyn, dyn],
                                              [1, tn, 1, 2 * q], [1, 1, 1, 1])
                scf.YieldOp([cur])
            whole = run.results[0]
        return whole

    def row_pairs(self, whole: ir.Value, vbuf: ir.Value, mbuf: ir.Value, first: ir.Value | None,
                  pairs: int) -> list[ir.Value]:
        """``pairs`` row pairs from ``first`` (0 when None) into ``whole`` with the scratch
        ``vbuf``/``mbuf``; returns the three updated."""
        from mlir.dialects import arith, scf

        const = self.const
        loop = scf.ForOp(const(0), const(pairs), const(1), [whole, vbuf, mbuf])
        with ir.InsertionPoint(loop.body):
            r = loop.induction_variable
            ty = r if first is None else arith.addi(first, r)
            cur, v, m = loop.inner_iter_args
            v = self.input_transform(v, ty)
            for first_f, tn, panels, uconst in self.chunks:
                pl = scf.ForOp(const(0), const(panels), const(1), [cur, m])
                with ir.InsertionPoint(pl.body):
                    p = pl.induction_variable
                    pc, pm = pl.inner_iter_args
                    f0 = arith.addi(arith.muli(p, const(tn)), const(first_f))
                    pm = self.products(pm, v, p, f0, uconst, tn)
                    scf.YieldOp([self.output_transform(pc, pm, f0, ty, r, tn), pm])
                cur, m = pl.results
            scf.YieldOp([cur, v, m])
        return list(loop.results)


def conv_to_winograd(op: ir.Operation, tile_m: int, tile_n: int, threads: int) -> None:
    """A batch-1 f32 3x3 stride-1 ``conv_2d_nchw_fchw`` with a constant filter as Winograd
    F(2x2, 3x3): 16 products per 2 x 2 output tile and channel instead of 36.

    The filter is transformed at compile time (``U = G g G^T``, stored ``[panel, 16, C, TN]``).
    Per pair of output rows (the iterations of an ``scf.forall`` with threads, each with its own
    scratch): the input transform ``V = B^T d B`` of every 4 x 4 input tile, as vector code over
    tiles (two loads of a padded input row give a vector of tiles' columns 0-3 by even/odd
    shuffles), into ``V[16, C, tiles]``; then, per filter panel, 16 register-tile matmuls
    ``M[xi] = V[xi]^T U[xi]`` (tiles by filters, K = C) into its columns of ``M[16, tiles, F]``; then the output
    transform ``A^T M A`` per tile, its two output rows stored transposed through the epilogue
    (:func:`store_rows_transposed`). The scratch of a row pair (16 x (C + F) x Wo/2 floats:
    229 KB for ResNet-18's 64-channel layers) stays in the L2. The path
    :data:`~.strategy.ConvPath.WINOGRAD` (f32, batch 1, 3x3, stride and dilation 1, padded by 1, an
    even output, a constant filter, enough channels, C * F at most ``WINOGRAD_MAX_CF``, a multiple
    of 8 filters, a vector epilogue)."""
    from mlir.dialects import arith

    _, _, _, xt, wt, ot = conv_operands(op)
    c = xt.shape[1]
    f = wt.shape[0]
    _, _, ho, wo = ot.shape
    x, out, warr, epilogue = transposed_tile_conv(op)
    elem = xt.element_type
    th, tw = ho // 2, wo // 2
    w = _Winograd(op, x, epilogue, tile_m, tile_n)
    anchor = epilogue if epilogue is not None else op
    with op.location, ir.InsertionPoint(anchor):
        w.zero = arith.constant(elem, 0.0)
        acc = epilogue.operands[-1] if epilogue is not None else tensor.EmptyOp([1, f, ho, wo], elem).result
        w.filter_panels(warr, tile_n)
        # Scratch of one row pair (one per thread): V[16, C, tiles] and M[16, tiles, F], the
        # filter panels writing their columns of M.
        vshape, mshape = [16, c, tw], [16, tw, f]
        if threads > 1 and th % threads == 0 and f * ho * wo * c * 9 >= PARALLEL_MIN_MACS:
            per = th // threads

            def block(mine: ir.Value, first: ir.Value, scratch: list[ir.Value]) -> tuple[ir.Value, list[ir.Value]]:
                done = w.row_pairs(mine, scratch[0], scratch[1], first, per)
                return done[0], done[1:]

            acc = over_row_blocks(acc, threads, th, 2, [vshape, mshape], block)
        else:
            vbuf, mbuf = tensor.EmptyOp(vshape, elem).result, tensor.EmptyOp(mshape, elem).result
            acc = w.row_pairs(acc, vbuf, mbuf, None, th)[0]
    replace_rewritten(op, out, acc, epilogue)
