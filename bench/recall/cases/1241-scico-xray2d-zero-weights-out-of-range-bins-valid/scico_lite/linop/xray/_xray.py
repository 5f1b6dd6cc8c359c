"""X-ray transform classes."""

from functools import partial
from typing import Optional
from warnings import warn

import numpy as np

import jax
import jax.numpy as jnp
from jax.typing import ArrayLike

Shape = tuple


def is_scalar_equiv(s):
    """Determine whether an object is a scalar or is scalar-equivalent."""
    return np.isscalar(s) or (isinstance(s, (np.ndarray, jax.Array)) and s.size == 1)


class XRayTransform2D:
    r"""Parallel ray, single axis, 2D X-ray projector.

    This implementation approximates the projection of each rectangular
    pixel as a boxcar function (whereas the exact projection is a
    trapezoid). Detector pixels are modeled as bins (rather than points)
    and this approximation allows fast calculation of the contribution
    of each pixel to each bin because the integral of the boxcar is
    simple.

    By requiring the width of a projected pixel to be less than or equal
    to the bin width (which is defined to be 1.0), we ensure that
    each pixel contributes to at most two bins, which accelerates the
    accumulation of pixel values into bins (equivalently, makes the
    linear operator sparse).

    Warning: The default pixel spacing is :math:`\sqrt{2}/2` (rather
    than 1) in order to satisfy the aforementioned spacing requirement.

    `x0`, `dx`, and `y0` should be expressed in units such that the
    detector spacing `dy` is 1.0.
    """

    def __init__(
        self,
        input_shape: Shape,
        angles: ArrayLike,
        x0: Optional[ArrayLike] = None,
        dx: Optional[ArrayLike] = None,
        y0: Optional[float] = None,
        det_count: Optional[int] = None,
    ):
        r"""
        Args:
            input_shape: Shape of input array.
            angles: (num_angles,) array of angles in radians. Viewing an
                (M, N) array as a matrix with M rows and N columns, an
                angle of 0 corresponds to summing rows, an angle of pi/2
                corresponds to summing columns, and an angle of pi/4
                corresponds to summing along antidiagonals.
            x0: (x, y) position of the corner of the pixel `im[0,0]`. By
                default, `(-input_shape * dx[0] / 2, -input_shape * dx[1] / 2)`.
            dx: Image pixel side length in x- and y-direction. Must be
                set so that the width of a projected pixel is never
                larger than 1.0. By default, [:math:`\sqrt{2}/2`,
                :math:`\sqrt{2}/2`].
            y0: Location of the edge of the first detector bin. By
                default, `-det_count / 2`
            det_count: Number of elements in detector. If ``None``,
                defaults to the size of the diagonal of `input_shape`.
        """
        self.input_shape = input_shape
        self.angles = angles

        self.nx = tuple(input_shape)
        if dx is None:
            dx = 2 * (np.sqrt(2) / 2,)
        if is_scalar_equiv(dx):
            dx = 2 * (dx,)
        self.dx = dx

        # check projected pixel width assumption
        Pdx = np.stack((dx[0] * jnp.cos(angles), dx[1] * jnp.sin(angles)))
        Pdiag1 = np.abs(Pdx[0] + Pdx[1])
        Pdiag2 = np.abs(Pdx[0] - Pdx[1])
        max_width: float = np.max(np.maximum(Pdiag1, Pdiag2))

        if max_width > 1:
            warn(
                f"A projected pixel has width {max_width} > 1.0, "
                "which will reduce projector accuracy."
            )

        if x0 is None:
            x0 = -(np.array(self.nx) * self.dx) / 2
        self.x0 = x0

        if det_count is None:
            det_count = int(np.ceil(np.linalg.norm(input_shape)))
        self.det_count = det_count
        self.ny = det_count
        self.output_shape = (len(angles), det_count)

        if y0 is None:
            y0 = -self.ny / 2
        self.y0 = y0
        self.dy = 1.0

    def project(self, im: ArrayLike) -> jax.Array:
        """Compute X-ray projection, equivalent to `H @ im`.

        Args:
            im: Input array representing the image to project.
        """
        return XRayTransform2D._project(im, self.x0, self.dx, self.y0, self.ny, self.angles)

    def back_project(self, y: ArrayLike) -> jax.Array:
        """Compute X-ray back projection, equivalent to `H.T @ y`.

        Args:
            y: Input array representing the sinogram to back project.
        """
        return XRayTransform2D._back_project(y, self.x0, self.dx, self.nx, self.y0, self.angles)

    @staticmethod
    @partial(jax.jit, static_argnames=["ny"])
    def _project(
        im: ArrayLike, x0: ArrayLike, dx: ArrayLike, y0: float, ny: int, angles: ArrayLike
    ) -> jax.Array:
        r"""Compute X-ray projection.

        Args:
            im: Input array, (M, N).
            x0: (x, y) position of the corner of the pixel im[0,0].
            dx: Pixel side length in x- and y-direction. Units are such
                that the detector bins have length 1.0.
            y0: Location of the edge of the first detector bin.
            ny: Number of detector bins.
            angles: (num_angles,) array of angles in radians. Pixels are
                projected onto unit vectors pointing in these directions.
        """
        nx = im.shape
        inds, weights = XRayTransform2D._calc_weights(x0, dx, nx, angles, y0)
        # Handle out of bounds indices by setting weight to zero
        weights_valid = jnp.where((inds >= 0) * (inds < ny), weights, 0.0)

        # avoid incompatible types in the .add (scatter operation)
        weights = weights.astype(im.dtype)

        y = (
            jnp.zeros((len(angles), ny), dtype=im.dtype)
            .at[jnp.arange(len(angles)).reshape(-1, 1, 1), inds]
            .add(im * weights_valid)
        )

        weights_valid = jnp.where((inds + 1 >= 0) * (inds + 1 < ny), 1 - weights, 0.0)
        y = y.at[jnp.arange(len(angles)).reshape(-1, 1, 1), inds + 1].add(im * weights_valid)

        return y

    @staticmethod
    @partial(jax.jit, static_argnames=["nx"])
    def _back_project(
        y: ArrayLike, x0: ArrayLike, dx: ArrayLike, nx: Shape, y0: float, angles: ArrayLike
    ) -> ArrayLike:
        r"""Compute X-ray back projection.

        Args:
            y: Input projection, (num_angles, N).
            x0: (x, y) position of the corner of the pixel im[0,0].
            dx: Pixel side length in x- and y-direction. Units are such
                that the detector bins have length 1.0.
            nx: Shape of back projection.
            y0: Location of the edge of the first detector bin.
            angles: (num_angles,) array of angles in radians. Pixels are
                projected onto units vectors pointing in these directions.
        """
        ny = y.shape[1]
        inds, weights = XRayTransform2D._calc_weights(x0, dx, nx, angles, y0)
        # Handle out of bounds indices by setting weight to zero
        weights_valid = jnp.where((inds >= 0) * (inds < ny), weights, 0.0)

        # the idea: [y[0, inds[0]], y[1, inds[1]], ...]
        HTy = jnp.sum(y[jnp.arange(len(angles)).reshape(-1, 1, 1), inds] * weights_valid, axis=0)

        weights_valid = jnp.where((inds + 1 >= 0) * (inds + 1 < ny), 1 - weights, 0.0)
        HTy = HTy + jnp.sum(
            y[jnp.arange(len(angles)).reshape(-1, 1, 1), inds + 1] * weights_valid, axis=0
        )

        return HTy

    @staticmethod
    @partial(jax.jit, static_argnames=["nx"])
    @partial(jax.vmap, in_axes=(None, None, None, 0, None))
    def _calc_weights(
        x0: ArrayLike, dx: ArrayLike, nx: Shape, angle: float, y0: float
    ) -> jax.Array:
        """

        Args:
            x0: Location of the corner of the pixel im[0,0].
            dx: Pixel side length in x- and y-direction. Units are such
                that the detector bins have length 1.0.
            nx: Input image shape.
            angle: (num_angles,) array of angles in radians. Pixels are
                projected onto units vectors pointing in these directions.
                (This argument is `vmap`ed.)
            y0: Location of the edge of the first detector bin.
        """
        u = [jnp.cos(angle), jnp.sin(angle)]
        Px0 = x0[0] * u[0] + x0[1] * u[1] - y0
        Pdx = [dx[0] * u[0], dx[1] * u[1]]
        Pxmin = jnp.min(jnp.array([Px0, Px0 + Pdx[0], Px0 + Pdx[1], Px0 + Pdx[0] + Pdx[1]]))

        Px = (
            Pxmin
            + Pdx[0] * jnp.arange(nx[0]).reshape(-1, 1)
            + Pdx[1] * jnp.arange(nx[1]).reshape(1, -1)
        )

        # detector bin inds
        inds = jnp.floor(Px).astype(int)

        # weights
        Pdx = jnp.array(u) * jnp.array(dx)
        diag1 = jnp.abs(Pdx[0] + Pdx[1])
        diag2 = jnp.abs(Pdx[0] - Pdx[1])
        w = jnp.max(jnp.array([diag1, diag2]))
        f = jnp.min(jnp.array([diag1, diag2]))

        width = (w + f) / 2
        distance_to_next = 1 - (Px - inds)  # always in (0, 1]
        weights = jnp.minimum(distance_to_next, width) / width

        return inds, weights
