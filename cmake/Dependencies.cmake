# All third-party dependencies come from Debian packages (scripts/setup.sh installs them).
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(Boost 1.74 REQUIRED)
find_package(SuiteSparse REQUIRED)
# The NetCDF sink writes its data through HDF5 as well (NetCDF-4 files are HDF5 files).
# The HDF5 sink also needs HDF5's high-level library (hdf5_hl: the dimension scales, H5DS*).
if(MBS_WITH_HDF5)
  find_package(HDF5 REQUIRED COMPONENTS C HL)
elseif(MBS_WITH_NETCDF)
  find_package(HDF5 REQUIRED COMPONENTS C)
endif()
if(MBS_WITH_NETCDF)
  find_package(netCDF REQUIRED)
endif()
if(MBS_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
