from herculens_lite.LensImage.lens_image import LensImage

if __name__ == "__main__":
    lens_image = LensImage(num_pix=32, pixel_width=0.1)
    kwargs_lens = [{'theta_E': 1.0}]
    kwargs_source = [{'amp': 10.0, 'sigma': 0.2}]
    kwargs_lens_light = [{'amp': 4.0, 'sigma': 0.5}]
    try:
        image = lens_image.model(kwargs_lens=kwargs_lens, kwargs_source=kwargs_source,
                                 kwargs_lens_light=kwargs_lens_light)
        print("lens light added:", bool(image[16, 16] > 3.0), "flux:", float(image.sum()))
    except Exception as e:
        print(f"{type(e).__name__}: {str(e).splitlines()[0][:80]}")
