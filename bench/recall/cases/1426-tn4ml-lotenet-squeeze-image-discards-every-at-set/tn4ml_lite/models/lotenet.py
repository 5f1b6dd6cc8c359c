import numpy as np
import jax.numpy as jnp
import jax

def squeeze_image(image, k=3):
    """
    Squeeze over H,W,D dimensions, but enlarge feature dimension to k**(S), where S=dimensionality of image.

    Parameters
    ----------
    image : np.array
        3D image
    k : int = 3
        Kernel stride and size (if k=3 then kernel has shape (3,3,3) and its moving by stride 3)

    Returns
    -------
    np.array
    """
    S = len(image.shape) - 1 # dimensionality of image
    if S < 2:
        ValueError('Image should be 2D or 3D!')

    new_dims = []
    for dim in list(image.shape)[:-1]:
        new_dims.append(dim // k)
    new_dims.append(list(image.shape)[-1] * k**S)
        
    reshaped_image = jnp.zeros(tuple(new_dims))
    
    feature = 0
    for x in range(k):
        for y in range(k):
            if S == 3:
                # 3D image
                for z in range(k):
                    kernel = jnp.zeros((k,k,k))
                    kernel.at[x,y,z].set(1)
                    kernel = jnp.expand_dims(kernel, axis=-1)
                    
                    tensor = jnp.zeros(tuple(new_dims[:-1]))
                    for i in range(0, image.shape[0], k):
                        for j in range(0, image.shape[1], k):
                            for l in range(0, image.shape[2], k):
                                patch = jnp.sum(image[i:i+k, j:j+k, l:l+k, :] * kernel)
                                
                                tensor.at[i//k, j//k, l//k].set(patch)
                    reshaped_image.at[:,:,:,feature].set(tensor)
                    feature += 1
            else:
                # 2D image
                kernel = jnp.zeros((k,k))
                kernel.at[x,y].set(1)
                kernel = jnp.expand_dims(kernel, axis=-1)
                
                tensor = jnp.zeros(tuple(new_dims[:2]))
                for i in range(0, image.shape[0], k):
                    for j in range(0, image.shape[1], k):
                            patch = jnp.sum(image[i:i+k, j:j+k, :] * kernel)
                            
                            tensor.at[i//k, j//k].set(patch)
                reshaped_image.at[:,:,feature].set(tensor)
                feature += 1
    return reshaped_image
